// Forks a child after a second; the child writes its node options to the
// file named by the program's argument, and the program ends with it.
const { fork } = require('child_process');
const fs = require('fs');

if (process.argv[2] === 'child') {
  fs.writeFileSync(process.argv[3], process.execArgv.join(' '));
} else {
  setTimeout(() => {
    fork(__filename, ['child', process.argv[2]]).on('exit', (code) => process.exit(code));
  }, 1000);
}
