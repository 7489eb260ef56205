// Runs a loop of 10,000 passes (or as many as its argument says),
// printing a line every quarter: a fixture for traces (the probe goes on
// the marked line).
const n = process.argv.length > 2 ? Number(process.argv[2]) : 10000;
console.log('trace-start');
let total = 0;
for (let i = 0; i < n; i++) {
  const k = i % 3;
  total += k; // TRACE: body
  if (i % (n / 4) === 0) {
    console.log(`at ${i}`);
  }
}
console.log(`trace-done total=${total}`);
