require 'minitest/autorun'
require 'cart'

class CartTest < Minitest::Test
  def test_total_wrong
    prices = [2, 3]
    got = Cart.total(prices)
    assert_equal 6, got
    puts 'after the assertion'
  end

  def test_discount_raises
    amount = 200
    assert_equal 0, Cart.discount(amount, 150)
  end

  [[1, 1, 2], [2, 3, 6]].each do |a, b, want|
    define_method("test_pair_#{a}_#{b}") do
      got = Cart.total([a, b])
      assert_equal want, got
    end
  end

  def test_passes
    puts 'checking the discount'
    assert_equal 180, Cart.discount(200, 10)
  end
end
