"""A long-running loop to attach to: it prints a growing count."""
import sys
import time


def tick(n):
    return n + 1  # TICK


def main():
    n = 0
    while True:
        n = tick(n)
        sys.stdout.write("tick %d\n" % n)
        sys.stdout.flush()
        time.sleep(0.05)


if __name__ == "__main__":
    main()
