// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so that
// its work runs on another core beside the server's own (MQTT, HTTP, decoding). Plain JavaScript: a
// worker thread starts without the TypeScript loader. The other side, and the messages, are in
// pglite-thread.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const { dir, image, pgliteWasmModule, initdbWasmModule } = workerData;
// The WebAssembly comes compiled from the server's thread (compiled once per process).
const client = new PGlite(dir ?? 'memory://', {
  pgliteWasmModule,
  initdbWasmModule,
  ...(image ? { loadDataDir: new Blob([image]) } : {}),
});

/** Open transactions by id: PGlite's transaction handle, how to end it, and its outcome. */
const open = new Map();
const ROLLBACK = Symbol('rollback');

/** Begins a transaction and holds it open (PGlite's transaction lock with it) until `end`. */
async function begin(id) {
  const t = {};
  const ended = new Promise((resolve) => {
    t.end = resolve;
  });
  let began;
  const started = new Promise((resolve) => {
    began = resolve;
  });
  t.done = client
    .transaction(async (tx) => {
      t.tx = tx;
      began();
      // A thrown value makes PGlite roll back; ours is not an error.
      if (!(await ended)) throw ROLLBACK;
    })
    .catch((e) => {
      if (e !== ROLLBACK) throw e;
    });
  open.set(id, t);
  t.done.catch(() => open.delete(id));
  await Promise.race([started, t.done]);
}

async function end(id, commit) {
  const t = open.get(id);
  if (!t) throw new Error('no such transaction');
  open.delete(id);
  t.end(commit);
  await t.done;
}

function target(m) {
  if (m.tx === undefined) return client;
  const t = open.get(m.tx);
  if (!t?.tx) throw new Error('no such transaction');
  return t.tx;
}

async function handle(m) {
  switch (m.op) {
    case 'ready':
      await client.waitReady;
      return null;
    case 'query':
      return (await target(m).query(m.text, m.params)).rows;
    case 'exec':
      await target(m).exec(m.text);
      return null;
    case 'begin':
      await begin(m.tx);
      return null;
    case 'end':
      await end(m.tx, m.commit);
      return null;
    case 'dump':
      return await (await client.dumpDataDir('none')).arrayBuffer();
    case 'close':
      if (!client.closed) await client.close();
      return null;
    default:
      throw new Error(`unknown operation ${m.op}`);
  }
}

/** An error as fields a message carries (a database error's code, detail, constraint …). */
function fields(e) {
  const out = { name: e?.name ?? 'Error', message: String(e?.message ?? e) };
  if (e && typeof e === 'object') {
    for (const [k, v] of Object.entries(e)) if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  }
  return out;
}

parentPort.on('message', (m) => {
  handle(m).then(
    (value) => {
      try {
        parentPort.postMessage({ id: m.id, value }, value instanceof ArrayBuffer ? [value] : []);
      } catch (e) {
        // A value that cannot cross the thread boundary.
        parentPort.postMessage({ id: m.id, error: fields(e) });
      }
      if (m.op === 'close') parentPort.close();
    },
    (e) => parentPort.postMessage({ id: m.id, error: fields(e) }),
  );
});
