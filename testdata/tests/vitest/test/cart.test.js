import { describe, expect, test } from 'vitest';
import { discount, total } from '../cart.js';

test('total is wrong', () => {
  const prices = [2, 3];
  const got = total(prices);
  expect(got).toBe(6);
  console.log('after the assertion');
});

test('discount throws', () => {
  const amount = 200;
  expect(discount(amount, 150)).toBe(0);
});

describe('pairs', () => {
  test.each([
    [1, 1, 2],
    [2, 3, 6],
  ])('%i + %i', (a, b, want) => {
    const got = total([a, b]);
    expect(got).toBe(want);
  });
});

test('passes', () => {
  console.log('checking the discount');
  expect(discount(200, 10)).toBe(180);
});
