"""An object, a list, a dict and a string at one stop: the values
conformance scenario's Python fixture."""


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def main():
    p = Point(3, 4)
    xs = [10, 20, 30]
    d = {"k": 5}
    name = "snake"
    print(p.x + p.y, len(xs), d["k"], name, flush=True)  # VALUES


main()
