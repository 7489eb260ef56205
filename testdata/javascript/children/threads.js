// A worker thread computes and posts its result to the main thread.
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

if (isMainThread) {
  const w = new Worker(__filename, { workerData: 6 });
  w.on('message', (m) => console.log('main got', m));
  w.on('exit', (code) => console.log('thread exit', code));
} else {
  const square = workerData * workerData; // BP:thread
  parentPort.postMessage(square);
}
