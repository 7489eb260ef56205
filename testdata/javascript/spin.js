// Busy for up to 30 seconds, running JavaScript all the time, so that a
// pause request lands in this file. It says so once it has spun a while.
let n = 0;
function tick() {
  n++; // BP:tick
}

const end = Date.now() + 30000;
while (Date.now() < end) {
  tick();
  if (n === 5000000) console.log('spinning');
}
console.log('ticks', n);
