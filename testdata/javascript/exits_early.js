// A script that ends before its breakpoint is ever reached.
console.log('bye');
process.exit(0);
console.log('unreachable'); // BP:never
