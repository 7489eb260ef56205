// A thrown error: one caught, then one uncaught.
function validate(n) {
  if (n > 2) {
    throw new RangeError(`value ${n} is too large`); // BP:throw
  }
  return n;
}

try {
  validate(5);
} catch (e) {
  console.log('caught', e.message);
}
validate(3);
