import { Worker } from 'node:worker_threads';
import { DBC_MAX_MESSAGES, DBC_MAX_SIGNALS, DBC_PARSE_SECONDS } from '@loggerhead/contract';
import type { DbcLimits, DbcRead } from './dbc-read.ts';

export interface DbcParseOptions {
  limits?: DbcLimits;
  /** Past this the thread is ended and the read refused (`DbcParseTimeout`). */
  deadlineMs?: number;
  /** Heap the thread may use; past it the read is refused (`DbcParseOutOfMemory`). */
  maxHeapMb?: number;
}

export class DbcParseTimeout extends Error {}
export class DbcParseOutOfMemory extends Error {}

export const DBC_LIMITS: DbcLimits = { maxMessages: DBC_MAX_MESSAGES, maxSignals: DBC_MAX_SIGNALS };

/**
 * Reads an uploaded DBC file on a worker thread of its own (one per file, ended when it answers, so
 * the memory of a large parse goes back with it): the server's thread only waits. The thread is
 * ended at the deadline. Where the worker pool of the plugins (lib/worker-pool.ts) can run a
 * TypeScript job with a deadline, this can become one of its jobs.
 */
export function readDbcOffThread(bytes: Uint8Array, opts: DbcParseOptions = {}): Promise<DbcRead> {
  const deadlineMs = opts.deadlineMs ?? DBC_PARSE_SECONDS * 1000;
  return new Promise<DbcRead>((resolve, reject) => {
    const copy = new Uint8Array(bytes);
    const worker = new Worker(new URL('./dbc-parse.worker.mjs', import.meta.url), {
      workerData: { bytes: copy, limits: opts.limits ?? DBC_LIMITS },
      transferList: [copy.buffer],
      // None of the server's flags (a loader, a profiler): the thread loads its TypeScript itself.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 1024 },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(new DbcParseTimeout(`Reading the DBC file took longer than ${Math.round(deadlineMs / 1000)} s`))),
      deadlineMs,
    );
    worker.on('message', (r: DbcRead) => settle(() => resolve(r)));
    worker.on('error', (e: Error & { code?: string }) =>
      settle(() => reject(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new DbcParseOutOfMemory('The DBC file needs too much memory') : e)),
    );
    worker.on('exit', (code) => settle(() => reject(new Error(`the DBC reader stopped (exit ${code})`))));
  });
}
