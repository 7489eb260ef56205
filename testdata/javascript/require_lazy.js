// Loads a module after the program starts, so breakpoints in it are
// verified only once it loads.
const { area } = require('./lib/shapes');

console.log('area', area(3, 4));
