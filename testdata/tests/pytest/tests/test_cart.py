import pytest

from cart import discount, total


def test_total_wrong():
    prices = [2, 3]
    got = total(prices)
    assert got == 6
    print("after the assertion")


def test_discount_raises():
    amount = 200
    assert discount(amount, 150) == 0


@pytest.mark.parametrize("a,b,want", [(1, 1, 2), (2, 3, 6)])
def test_pairs(a, b, want):
    got = total([a, b])
    assert got == want


def test_passes():
    print("checking the discount")
    assert discount(200, 10) == 180
