"""Raises a ValueError it catches, then ends: breakOnExceptions all stops
at the raise."""


def check(v):
    if v > 2:
        raise ValueError("value %d is too large" % v)  # RAISE
    return v


try:
    check(5)
except ValueError as e:
    print("caught", e, flush=True)
print("done", flush=True)
