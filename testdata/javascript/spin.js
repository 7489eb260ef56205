// Busy for up to 30 seconds, running JavaScript all the time, so that a
// pause request lands in this file. It says so first.
console.log('spinning');
let n = 0;
function tick() {
  n++; // BP:tick
}

const end = Date.now() + 30000;
while (Date.now() < end) {
  tick();
}
console.log('ticks', n);
