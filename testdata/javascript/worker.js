// A worker thread: it computes an answer and posts it to the main thread,
// which stops while the worker is still alive.
const { Worker, isMainThread, parentPort } = require('worker_threads');

if (isMainThread) {
  const w = new Worker(__filename);
  w.on('message', (m) => {
    console.log('from worker', m); // BP:message
    w.terminate();
  });
  w.on('exit', () => console.log('worker done'));
} else {
  const answer = 6 * 7; // BP:worker
  parentPort.postMessage(answer);
  setInterval(() => {}, 1000);
}
