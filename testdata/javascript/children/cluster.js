// A cluster: the primary forks one worker, which computes and exits.
const cluster = require('cluster');

if (cluster.isPrimary) {
  const w = cluster.fork({ ROLE: 'worker' });
  w.on('exit', (code) => console.log('worker exit', code));
} else {
  const id = cluster.worker.id;
  const total = id * 40 + 2; // BP:cluster
  console.log('cluster worker', id, 'total', total);
  process.exit(0);
}
