// A closure: the returned function keeps count and label alive.
function makeCounter(start) {
  let count = start;
  const label = 'counter';
  return function increment(step) {
    count += step; // BP:closure
    return `${label}:${count}`;
  };
}

const inc = makeCounter(10);
console.log(inc(1));
console.log(inc(2));
