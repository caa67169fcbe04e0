// A worker thread that reads one uploaded DBC file (dbc-read.ts) away from the server's thread, so
// that a tenant's large file never stalls the others; dbc-parse.ts starts it, bounds its time and
// memory, and ends it. Plain JavaScript: a worker thread starts without the TypeScript loader, so
// the TypeScript source is loaded through tsx's API.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { readDbc } = await tsImport('./dbc-read.ts', import.meta.url);
const r = readDbc(workerData.bytes, workerData.limits);
parentPort.postMessage(r, r.ok ? [r.summary_json.buffer, r.names.buffer] : []);
