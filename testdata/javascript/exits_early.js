// A script that ends before its breakpoint is ever reached.
console.log('bye');

function never() {
  return 1; // BP:never
}
