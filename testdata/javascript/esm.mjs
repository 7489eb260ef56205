// An ES module with top-level await.
import { setTimeout as sleep } from 'node:timers/promises';

const words = ['alpha', 'beta'];
for (const w of words) {
  await sleep(1);
  console.log(w.toUpperCase()); // BP:esm
}
