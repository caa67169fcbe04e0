import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { answers, type Database, type RawSql } from './client.ts';

interface Reply {
  id: number;
  value?: unknown;
  error?: Record<string, unknown>;
}

interface Waiting {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** A database error as the thread sent it: an Error with the same fields (code, detail, constraint …). */
function rebuild(fields: Record<string, unknown>): Error {
  const e = new Error(String(fields.message));
  for (const [k, v] of Object.entries(fields)) if (k !== 'message' && k !== 'stack') Object.assign(e, { [k]: v });
  return e;
}

/** A compiled WebAssembly module, only handed on to the thread (the server's libs do not type WebAssembly). */
type WasmModule = object;
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

let compiled: Promise<{ pglite: WasmModule; initdb: WasmModule }> | null = null;

/**
 * PGlite's WebAssembly, compiled once per process and handed to each thread: a thread compiling its
 * own 9 MB took seconds (PGlite keeps compiled modules per thread).
 */
function wasmModules() {
  compiled ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const compile = async (file: string) => WebAssembly.compile(await fs.promises.readFile(path.join(dist, file)));
    const [pglite, initdb] = await Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]);
    return { pglite, initdb };
  })();
  compiled.catch(() => {
    compiled = null;
  });
  return compiled;
}

/**
 * The embedded database in a worker thread of its own (`pglite-thread.worker.mjs`), behind the same
 * `Database` surface as PGlite on this thread. PGlite runs PostgreSQL as WebAssembly on the thread that
 * calls it: a fleet's group commits took half of the server's one thread, beside every MQTT packet and
 * HTTP request. On its own thread the two run on two cores (docs/decisions/0193-pglite-thread.md).
 *
 * Queries and their rows cross the boundary by structured clone (Dates, typed arrays and bigints as
 * they are). A transaction is begun in the thread and held open there, PGlite's transaction lock with
 * it, while its statements come from here one by one; a nested one is a savepoint, as on a server.
 * The thread does not keep the process alive while nothing is asked of it.
 */
export async function openPgliteThread(dir: string | undefined, image?: Blob): Promise<Database> {
  const data = image ? await image.arrayBuffer() : undefined;
  const wasm = await wasmModules();
  const worker = new Worker(new URL('./pglite-thread.worker.mjs', import.meta.url), {
    workerData: { dir, image: data, pgliteWasmModule: wasm.pglite, initdbWasmModule: wasm.initdb },
    transferList: data ? [data] : [],
    // None of the server's flags (a loader, `--input-type`, a profiler): the thread runs plain JavaScript.
    execArgv: [],
  });
  worker.unref();
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let nextTx = 1;
  let failure: Error | null = null;

  const stop = (e: Error) => {
    failure ??= e;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  worker.on('message', (r: Reply) => {
    const w = waiting.get(r.id);
    if (!w) return;
    waiting.delete(r.id);
    if (!waiting.size) worker.unref();
    if (r.error) w.reject(rebuild(r.error));
    else w.resolve(r.value);
  });
  worker.on('error', (e) => stop(new Error(`the embedded database stopped: ${e.message}`)));
  worker.on('exit', (code) => stop(new Error(`the embedded database stopped (its thread ended with ${code})`)));

  const call = (message: { op: string; tx?: number; text?: string; params?: unknown[]; commit?: boolean }) =>
    new Promise<unknown>((resolve, reject) => {
      if (failure) {
        reject(failure);
        return;
      }
      const id = nextId++;
      if (!waiting.size) worker.ref();
      waiting.set(id, { resolve, reject });
      try {
        worker.postMessage({ ...message, id });
      } catch (e) {
        // A parameter that cannot cross the boundary (a function, say).
        waiting.delete(id);
        if (!waiting.size) worker.unref();
        reject(e);
      }
    });

  async function transaction<T>(fn: (tx: RawSql) => Promise<T>): Promise<T> {
    const tx = nextTx++;
    await call({ op: 'begin', tx });
    let out: T;
    try {
      out = await fn(sql(tx, 1));
    } catch (e) {
      await call({ op: 'end', tx, commit: false }).catch(() => {});
      throw e;
    }
    await call({ op: 'end', tx, commit: true });
    return out;
  }

  async function savepoint<T>(tx: number, depth: number, fn: (tx: RawSql) => Promise<T>): Promise<T> {
    const name = `sp${depth}`;
    await call({ op: 'exec', tx, text: `savepoint ${name}` });
    try {
      const out = await fn(sql(tx, depth + 1));
      await call({ op: 'exec', tx, text: `release savepoint ${name}` });
      return out;
    } catch (e) {
      await call({ op: 'exec', tx, text: `rollback to savepoint ${name}` });
      throw e;
    }
  }

  const sql = (tx: number | undefined, depth: number): RawSql => ({
    async query<R>(text: string, params?: unknown[]) {
      return { rows: (await call({ op: 'query', tx, text, params })) as R[] };
    },
    async exec(text: string) {
      await call({ op: 'exec', tx, text });
    },
    transaction: (fn) => (tx === undefined ? transaction(fn) : savepoint(tx, depth, fn)),
  });

  try {
    await call({ op: 'ready' });
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  const raw = sql(undefined, 0);
  return {
    kind: 'pglite',
    offThread: true,
    raw,
    get closed() {
      return failure !== null;
    },
    async dump() {
      return new Blob([(await call({ op: 'dump' })) as ArrayBuffer]);
    },
    ping: () => answers(raw),
    async close() {
      if (failure) return;
      await call({ op: 'close' }).catch(() => {});
      failure ??= new Error('the database is closed');
      await worker.terminate();
    },
  };
}
