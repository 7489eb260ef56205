'use strict';

const assert = require('node:assert');
const { total, discount } = require('../cart');

it('total is wrong', () => {
  const prices = [2, 3];
  const got = total(prices);
  assert.strictEqual(got, 6);
  console.log('after the assertion');
});

it('discount throws', () => {
  const amount = 200;
  assert.strictEqual(discount(amount, 150), 0);
});

describe('pairs', () => {
  for (const [a, b, want] of [[1, 1, 2], [2, 3, 6]]) {
    it(`${a} + ${b}`, () => {
      const got = total([a, b]);
      assert.strictEqual(got, want);
    });
  }
});

it('passes', () => {
  console.log('checking the discount');
  assert.strictEqual(discount(200, 10), 180);
});
