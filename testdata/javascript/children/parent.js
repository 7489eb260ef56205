// Starts child.js as a child node process, by child_process.fork or, with
// the argument "spawn", child_process.spawn of node itself, and prints
// what the child says.
const path = require('path');
const { fork, spawn } = require('child_process');

const childFile = path.join(__dirname, 'child.js');
const how = process.argv[2] || 'fork';
const child = how === 'spawn'
  ? spawn(process.execPath, [childFile, how], { stdio: 'inherit' })
  : fork(childFile, [how]);
console.log('parent started', how, 'child');
child.on('exit', (code) => console.log('child exit', code));
