// A worker thread: the main thread stops while the worker is alive.
const { Worker, isMainThread, parentPort } = require('worker_threads');

if (isMainThread) {
  const w = new Worker(__filename);
  w.on('message', (m) => {
    console.log('from worker', m); // BP:message
    w.terminate();
  });
  w.on('exit', () => console.log('worker done'));
} else {
  parentPort.postMessage(6 * 7);
  setInterval(() => {}, 1000);
}
