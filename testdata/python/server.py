"""Runs until killed, printing a counter: a target for attach tests."""
import os
import sys
import time


def tick(n):
    nxt = n + 1  # TICK
    return nxt


def main():
    n = 0
    print("ready", os.getpid(), flush=True)
    while True:
        n = tick(n)
        if n % 10 == 0:
            print("tick", n, flush=True)
        time.sleep(0.02)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--listen":
        import debugpy
        debugpy.listen(("127.0.0.1", int(sys.argv[2])))
    main()
