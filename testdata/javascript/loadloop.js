// Loops until killed, calling a function each pass: a program for the
// load benchmark, which stops at its breakpoint, steps and continues for
// as long as it runs.
function add(a, b) {
  const sum = a + b;
  return sum;
}

let total = 0;
for (let i = 0; ; i++) {
  total = add(total, i % 7); // BP:loop
  if (i % 1000000 === 0) console.log('pass', i, total);
}
