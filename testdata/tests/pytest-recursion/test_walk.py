from walk import is_even, length


def test_length_of_a_loop():
    a = {"name": "a"}
    b = {"name": "b", "next": a}
    a["next"] = b
    assert length(a) == 2


def test_even_below_zero():
    assert is_even(-2)
