// A RangeError thrown and caught, then the end: breakOnExceptions all
// stops at the throw.
export {}; // a module: its names are its own

function validate(n: number): number {
  if (n > 2) {
    throw new RangeError(`value ${n} is too large`); // BP:ts-caught
  }
  return n;
}

try {
  validate(5);
} catch (e) {
  console.log(`caught ${(e as Error).message}`);
}
console.log('done');
