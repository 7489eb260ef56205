# os.fork: the child does the work, the parent waits for it.
import os


def work(n):
    square = n * n
    label = "forked"
    print(f"forked {label} square={square}", flush=True)  # BP:fork


pid = os.fork()
if pid == 0:
    work(5)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print(f"parent saw fork exit {os.waitstatus_to_exitcode(status)}", flush=True)
