'use strict';

// total sums prices.
function total(prices) {
  let sum = 0;
  for (const p of prices) {
    sum += p;
  }
  return sum;
}

// discount reduces amount by percent, which must be between 0 and 100.
function discount(amount, percent) {
  if (percent < 0 || percent > 100) {
    throw new RangeError(`percent ${percent} is out of range`);
  }
  return amount - (amount * percent) / 100;
}

module.exports = { total, discount };
