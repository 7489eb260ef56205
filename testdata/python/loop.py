"""A small program for debugging: a loop, a function call and output."""


def add(a, b):
    total = a + b
    return total


def main():
    total = 0
    names = ["ant", "bee", "cat"]
    for i in range(3):
        total = add(total, i)  # BREAK
        print(f"i={i} total={total} name={names[i]}")
    print(f"done total={total}")


if __name__ == "__main__":
    main()
