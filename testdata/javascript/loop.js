// A loop: sums the first numbers and prints each partial sum.
let total = 0;
for (let i = 0; i < 5; i++) {
  total += i; // BP:loop
  console.log(`i=${i} total=${total}`);
}
console.log('done', total);
