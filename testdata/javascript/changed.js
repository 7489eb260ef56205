// Locals that change and appear between stops of one frame: a fixture for
// the changed field of stop answers.
function work() {
  let count = 1;
  count = count + 1; // CHANGED: start
  const label = 'one';
  count = count * 10; // CHANGED: after
  const extra = count + 2;
  count = count + extra;
  count = count - 1;
  count = count + 1;
  console.log(`count=${count} label=${label} extra=${extra}`);
  return extra;
}

console.log(`work=${work()}`);
