// Runs a loop of 10,000 passes, printing a line every 2,500: a fixture
// for traces (the probe goes on the marked line).
console.log('trace-start');
let total = 0;
for (let i = 0; i < 10000; i++) {
  const k = i % 3;
  total += k; // TRACE: body
  if (i % 2500 === 0) {
    console.log(`at ${i}`);
  }
}
console.log(`trace-done total=${total}`);
