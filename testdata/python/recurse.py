"""A recursion LIMIT calls deep (default 3): the frames of one function at
different depths, for the changed field of stop answers."""
import sys


def down(n, limit):
    here = n * 10  # RECURSE
    if n < limit:
        down(n + 1, limit)
    here = here + 1  # BACK
    return here


if __name__ == "__main__":
    down(1, int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    print("recursed")
