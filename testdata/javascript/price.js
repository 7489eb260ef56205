// price.js has a function that computes a wrong value (total adds one too
// many), for the live-edit flows of the conformance table's reload
// scenario: they evaluate without side effects in main, restart
// countdown's frame, then fix total in a copy while it runs.
function total(qty, unit) {
  const sum = qty * unit;
  return sum + 1; // BP:wrong
}

function countdown(n) {
  let acc = 0;
  for (let i = n; i > 0; i--) {
    acc += i; // BP:loop
  }
  return acc;
}

function main() {
  const obj = { count: 5 };
  const a = 3;
  const b = 4;
  const c = countdown(3); // BP:main
  const t = total(a, b);
  console.log("total=" + t + " count=" + obj.count);
  console.log("countdown=" + c);
}

main();
