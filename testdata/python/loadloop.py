"""Loops until killed, calling a function each pass: a program for the
load benchmark, which stops at its breakpoint, steps and continues for
as long as it runs."""


def add(a, b):
    total = a + b
    return total


def main():
    total = 0
    i = 0
    while True:
        total = add(total, i % 7)  # BREAK
        i += 1
        if i % 1000000 == 0:
            print("pass", i, total, flush=True)


if __name__ == "__main__":
    main()
