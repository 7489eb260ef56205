# A small shopping cart, the code under test.
module Cart
  # Sums prices.
  def self.total(prices)
    sum = 0
    prices.each { |p| sum += p }
    sum
  end

  # Reduces amount by percent, which must be between 0 and 100.
  def self.discount(amount, percent)
    raise ArgumentError, "percent #{percent} is out of range" unless (0..100).cover?(percent)

    amount - amount * percent / 100
  end
end
