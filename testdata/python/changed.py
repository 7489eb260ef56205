"""Locals that change and appear between stops of one frame: a fixture for
the changed field of stop answers."""


def work():
    count = 1
    count = count + 1  # CHANGED: start
    label = "one"
    count = count * 10  # CHANGED: after
    extra = count + 2
    count = count + extra
    count = count - 1
    count = count + 1
    print(f"count={count} label={label} extra={extra}")
    return extra


if __name__ == "__main__":
    print(f"work={work()}")
