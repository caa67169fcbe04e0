// One thread of a WorkerPool (worker-pool.ts). It loads the pool's task module (TypeScript through
// tsx's loader, JavaScript as it is) and runs the items it is sent one by one, writing the index of
// the item under way and the time it began into the shared progress buffer, which the pool's
// watchdog reads to terminate a thread stuck on one item past its deadline.
import { parentPort, workerData } from 'node:worker_threads';

const { module, init, progress } = workerData;
const index = new Int32Array(progress, 0, 1);
const started = new BigInt64Array(progress, 8, 1);
/** Results are sent in groups at most this often, so a thread terminated mid-batch loses little work. */
const SEND_EVERY_MS = 10;

if (module.endsWith('.ts') || module.endsWith('.mts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const tasks = await import(module);

/** An error as plain fields (its message, code and other own fields), to be rebuilt on the other side. */
function fields(e) {
  if (!(e instanceof Error)) return { message: String(e) };
  const out = { message: e.message, name: e.name };
  for (const [k, v] of Object.entries(e)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  return out;
}

parentPort.on('message', async (m) => {
  const fn = tasks[m.task];
  let out = [];
  let from = 0;
  let sent = Date.now();
  for (let i = 0; i < m.items.length; i++) {
    // The time first, then the index: the watchdog, reading the index first, never pairs a new index with an old time.
    Atomics.store(started, 0, BigInt(Date.now()));
    Atomics.store(index, 0, i);
    try {
      if (typeof fn !== 'function') throw new Error(`no task ${m.task}`);
      out.push({ ok: true, value: await fn(m.items[i], init, m.common) });
    } catch (e) {
      out.push({ ok: false, error: fields(e) });
    }
    if (i < m.items.length - 1 && Date.now() - sent >= SEND_EVERY_MS) {
      parentPort.postMessage({ id: m.id, from, out, done: false });
      from = i + 1;
      out = [];
      sent = Date.now();
    }
  }
  Atomics.store(index, 0, -1);
  parentPort.postMessage({ id: m.id, from, out, done: true });
});
