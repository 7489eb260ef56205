def length(node):
    """The number of nodes from node to the end of the list."""
    if node is None:
        return 0
    return 1 + length(node.get("next"))


def is_even(n):
    return n == 0 or is_odd(n - 1)


def is_odd(n):
    return n != 0 and is_even(n - 1)
