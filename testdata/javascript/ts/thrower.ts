// Throws and catches "bad n <n>" on every even n until killed: a target
// for attaching with exception breakpoints.
export {}; // a module: its names are its own

let n: number = 0;
setInterval(() => {
  n++;
  try {
    if (n % 2 === 0) throw new Error(`bad n ${n}`); // THROW
  } catch (e) {
    console.log(`tick ${(e as Error).message}`);
  }
}, 50);
