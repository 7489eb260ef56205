# A multiprocessing worker, started by the method named in argv[1]
# (fork, spawn or forkserver).
import multiprocessing
import sys


def work(n):
    square = n * n
    label = "worker"
    print(f"worker {label} square={square}", flush=True)  # BP:worker


if __name__ == "__main__":
    ctx = multiprocessing.get_context(sys.argv[1])
    p = ctx.Process(target=work, args=(6,))
    p.start()
    p.join()
    print(f"parent saw worker exit {p.exitcode}", flush=True)
