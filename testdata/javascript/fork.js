// Forks a child node process, which inherits this process's node options.
// The child waits a moment before it answers, so a debugger can attach.
const { fork } = require('child_process');

if (process.argv[2] === 'child') {
  setTimeout(() => {
    const greeting = 'hi from child'; // BP:child
    process.send(greeting);
    process.exit(0);
  }, 1000);
} else {
  const child = fork(__filename, ['child']);
  child.on('message', (m) => console.log('child says', m));
  child.on('exit', (code) => console.log('child exit', code));
}
