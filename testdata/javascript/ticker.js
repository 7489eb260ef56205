// Prints a greeting every 50 ms for up to two minutes, from a function
// the live-edit tests replace in a copy while the program runs.
function greeting(n) {
  return 'old ' + n; // RELOAD: greeting
}

let n = 0;
const timer = setInterval(() => {
  console.log(greeting(n++));
  if (n >= 2400) {
    clearInterval(timer);
  }
}, 50);
