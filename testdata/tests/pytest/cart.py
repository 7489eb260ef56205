"""A small shopping cart, the code under test."""


def total(prices):
    """Sum of the prices."""
    result = 0
    for p in prices:
        result += p
    return result


def discount(amount, percent):
    """amount reduced by percent; percent must be between 0 and 100."""
    if not 0 <= percent <= 100:
        raise ValueError(f"percent {percent} is out of range")
    return amount - amount * percent // 100
