// Forks a child with stdio of its own (silent): the announcement of its
// inspector goes to this program, not to the stderr a debugger reads. The
// child reaches its breakpoint in its very first statement.
const { fork } = require('child_process');

if (process.argv[2] === 'child') {
  const greeting = 'quiet child'; // BP:silent
  process.send(greeting, () => process.exit(0));
} else {
  const child = fork(__filename, ['child'], { silent: true });
  child.on('message', (m) => console.log('child says', m));
  child.on('exit', (code) => console.log('child exit', code));
}
