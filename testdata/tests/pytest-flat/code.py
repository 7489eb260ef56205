"""The code under test. Its name is the standard library's code module
too, which the debugger imports: the tests must get this file."""


def add(a, b):
    total = a - b
    return total
