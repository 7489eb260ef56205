"""Raises an uncaught exception after printing a line."""


def parse(text):
    return int(text)


print("about to fail", flush=True)
value = parse("not a number")
print("never printed", value)
