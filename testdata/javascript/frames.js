// A call from one function into another: the conformance fixture of the
// frame that calls naming no frame act on.
function scale(x) {
  const scaled = x * 3; // FRAME: callee
  return scaled;
}

function run() {
  let i = 0;
  const out = scale(i + 2);
  console.log(`scaled=${out} i=${i}`);
}

run();
