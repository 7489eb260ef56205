// Throws and catches "bad n <n>" on every even n until killed: a target
// for attaching with exception breakpoints.
let n = 0;
setInterval(() => {
  n++;
  try {
    if (n % 2 === 0) throw new Error('bad n ' + n); // THROW
  } catch (e) {
    console.log('tick ' + e.message);
  }
}, 50);
