import nosuchmodule


def test_orders():
    assert nosuchmodule.count() == 1
