require 'cart'

RSpec.describe Cart do
  it 'totals wrong' do
    prices = [2, 3]
    got = Cart.total(prices)
    expect(got).to eq(6)
    puts 'after the expectation'
  end

  it 'raises on a bad discount' do
    amount = 200
    expect(Cart.discount(amount, 150)).to eq(0)
  end

  [[1, 1, 2], [2, 3, 6]].each do |a, b, want|
    it "adds #{a} and #{b}" do
      got = Cart.total([a, b])
      expect(got).to eq(want)
    end
  end

  it 'passes' do
    puts 'checking the discount'
    expect(Cart.discount(200, 10)).to eq(180)
  end
end
