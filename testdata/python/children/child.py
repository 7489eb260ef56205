# A child program: the subprocess fixture runs it with sys.executable.
import sys


def work(n):
    square = n * n
    label = "child"
    print(f"child {label} square={square}", flush=True)  # BP:child
    return square


if __name__ == "__main__":
    sys.exit(0 if work(int(sys.argv[1])) == 49 else 1)
