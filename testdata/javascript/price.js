// price.js has a function that computes a wrong value (total adds one too
// many), for the live-edit tests: they fix it in a copy while it runs.
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
  const t = total(a, b); // BP:main
  console.log("total=" + t + " count=" + obj.count);
  console.log("countdown=" + countdown(3));
}

main();
