// A TypeScript loop with a function call: the conformance fixture of the
// typescript language. With "forever" it ticks until killed; with "throw"
// it throws on the third pass.
declare const process: { argv: string[] };

function square(x: number): number {
  const result: number = x * x;
  return result;
}

const mode: string = process.argv[2] || '';
let total: number = 0;
let next: number = 0;
for (let i = 0; mode === 'forever' || i < 5; i++) {
  if (mode === 'throw' && i === 2) {
    throw new RangeError(`pass ${i} is too far`); // BP:ts-throw
  }
  total += square(i); // BP:ts-loop
  if (mode !== 'forever') {
    console.log(`pass i=${i} total=${total}`);
  } else if (Date.now() >= next) {
    console.log(`tick i=${i}`);
    next = Date.now() + 100;
  }
}
console.log(`counted total=${total}`);
