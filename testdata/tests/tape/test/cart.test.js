'use strict';

const test = require('tape');
const { total } = require('../cart');

test('total is wrong', (t) => {
  const prices = [2, 3];
  const got = total(prices);
  t.equal(got, 6);
  t.end();
});
