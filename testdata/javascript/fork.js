// Forks a child node process, which inherits this process's node options.
const { fork } = require('child_process');

if (process.argv[2] === 'child') {
  process.send('hi from child');
  process.exit(0);
}

const child = fork(__filename, ['child']);
child.on('message', (m) => console.log('child says', m));
child.on('exit', (code) => console.log('child exit', code));
