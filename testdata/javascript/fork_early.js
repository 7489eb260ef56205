// Forks a child node process that reaches its breakpoint in its very first
// statement: a debugger stops there only if the child waits for it.
const { fork } = require('child_process');

if (process.argv[2] === 'child') {
  const greeting = 'early from child'; // BP:early
  process.send(greeting, () => process.exit(0));
} else {
  const child = fork(__filename, ['child']);
  child.on('message', (m) => console.log('child says', m));
  child.on('exit', (code) => console.log('child exit', code));
}
