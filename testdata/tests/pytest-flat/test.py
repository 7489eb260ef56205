import unittest

from code import add


class TestAdd(unittest.TestCase):
    def test_add(self):
        got = add(2, 2)
        self.assertEqual(got, 4)

    def test_zero(self):
        self.assertEqual(add(0, 0), 0)


if __name__ == "__main__":
    unittest.main()
