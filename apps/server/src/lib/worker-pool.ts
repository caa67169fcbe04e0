import { Worker } from 'node:worker_threads';

/** An item that ran past its deadline: its thread was terminated (and replaced). */
export class DeadlineError extends Error {
  constructor(
    readonly task: string,
    readonly deadlineMs: number,
  ) {
    super(`${task} ran over ${deadlineMs} ms and was stopped`);
    this.name = 'DeadlineError';
  }
}

/** An item whose thread died under it (out of memory, say); the thread was replaced. */
export class WorkerCrashError extends Error {
  constructor(
    readonly task: string,
    why: string,
  ) {
    super(`${task} stopped its thread: ${why}`);
    this.name = 'WorkerCrashError';
  }
}

/** What one item of a batch came to: its value, or the error it threw (rebuilt with its own fields), a DeadlineError or a WorkerCrashError. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: Error };

export interface WorkerPoolOptions {
  /** The module whose exported functions are the tasks, `(item, init, common) => value | Promise<value>`: `.mjs`/`.js`, or `.ts` (loaded through tsx). */
  module: URL;
  /** Threads at most (started when work comes, replaced when one is terminated). */
  size: number;
  /** Given to every task call as its second argument (structured-cloned once per thread). */
  init?: unknown;
  /** The V8 heap bounds of each thread: one past them ends its item with a WorkerCrashError. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

export interface RunOptions {
  /** How long one item may run in its thread before the thread is terminated. */
  deadlineMs: number;
  /** Buffers moved to the thread instead of copied (`run` only). */
  transfer?: ArrayBuffer[];
  /** Given to every item's call as its third argument, sent once per message (what a batch's items share). */
  common?: unknown;
  /** Whose work this is (a tenant): a free thread takes the waiting job of the key served longest ago. */
  key?: string;
}

interface Job {
  id: number;
  task: string;
  items: unknown[];
  deadlineMs: number;
  transfer?: ArrayBuffer[];
  common?: unknown;
  key: string;
  results: (Settled<unknown> | undefined)[];
  /** Items not yet answered, in order. */
  left: number[];
  done(results: Settled<unknown>[]): void;
}

interface Slot {
  worker: Worker;
  index: Int32Array;
  started: BigInt64Array;
  job: Job | null;
  /** The job's items sent to this thread, in the order the thread runs them. */
  sent: number[];
  ended: boolean;
}

function rebuild(fields: Record<string, unknown>): Error {
  const e = new Error(String(fields.message));
  for (const [k, v] of Object.entries(fields)) if (k !== 'message') Object.assign(e, { [k]: v });
  return e;
}

/**
 * Worker threads for CPU work a tenant controls (a plugin's expression, a parser given a tenant's
 * file): the server's own thread, which answers every tenant, only posts the work and waits.
 * `run(task, input, {deadlineMs})` answers the task's value or rejects with its error; past the
 * deadline the thread is terminated — which stops even a single call that never yields, such as a
 * backtracking regular expression — and the call rejects with a `DeadlineError`; a thread that
 * dies (out of its `resourceLimits`) rejects with a `WorkerCrashError`. Either way a new thread
 * takes its place. `runEach` sends many small items in one message (one round trip, not one per
 * item) and holds each item to the deadline on its own: a stuck item ends alone, the others of the
 * batch run on in the new thread. While every thread is busy jobs wait, and a free thread takes the
 * job of the key (a tenant) served longest ago.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  /** When each key's work was last handed to a thread (a count of hand-overs). */
  private readonly served = new Map<string, number>();
  private handovers = 0;
  private watchdog: NodeJS.Timeout | null = null;
  private closed = false;
  /** Threads terminated at a deadline or lost to a crash (and replaced), for tests and logs. */
  replaced = 0;

  constructor(private readonly o: WorkerPoolOptions) {}

  /** One item: its value, or its error. */
  async run<T>(task: string, input: unknown, opts: RunOptions): Promise<T> {
    const [r] = await this.enqueue(task, [input], opts);
    if (!r.ok) throw r.error;
    return r.value as T;
  }

  /** Many items in one message: each answered on its own (value or error), in order. */
  runEach<T>(task: string, inputs: unknown[], opts: RunOptions): Promise<Settled<T>[]> {
    return this.enqueue(task, inputs, opts) as Promise<Settled<T>[]>;
  }

  /** Terminates every thread; what was waiting fails. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopWatchdog();
    const fail = (j: Job) => {
      for (const i of j.left) j.results[i] ??= { ok: false, error: new Error('the worker pool closed') };
      j.left = [];
      j.done(j.results as Settled<unknown>[]);
    };
    for (const j of this.queue.splice(0)) fail(j);
    const slots = this.slots.splice(0);
    for (const s of slots) {
      s.ended = true;
      if (s.job) fail(s.job);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Threads running now. */
  get threads(): number {
    return this.slots.length;
  }

  private enqueue(task: string, items: unknown[], opts: RunOptions): Promise<Settled<unknown>[]> {
    if (this.closed) return Promise.reject(new Error('the worker pool closed'));
    if (!items.length) return Promise.resolve([]);
    return new Promise((resolve) => {
      this.queue.push({
        id: this.nextId++,
        task,
        items,
        deadlineMs: opts.deadlineMs,
        transfer: opts.transfer,
        common: opts.common,
        key: opts.key ?? '',
        results: new Array(items.length),
        left: items.map((_, i) => i),
        done: resolve,
      });
      this.pump();
    });
  }

  private spawn(): Slot {
    const progress = new SharedArrayBuffer(16);
    const worker = new Worker(new URL('./worker-pool.worker.mjs', import.meta.url), {
      workerData: { module: this.o.module.href, init: this.o.init, progress },
      resourceLimits: this.o.resourceLimits,
      // None of the server's flags (a loader, a profiler): a TypeScript task module registers tsx itself.
      execArgv: [],
    });
    const slot: Slot = {
      worker,
      index: new Int32Array(progress, 0, 1),
      started: new BigInt64Array(progress, 8, 1),
      job: null,
      sent: [],
      ended: false,
    };
    slot.index[0] = -1;
    worker.unref();
    worker.on(
      'message',
      (m: { id: number; from: number; out: { ok: boolean; value?: unknown; error?: Record<string, unknown> }[]; done: boolean }) => {
        const job = slot.job;
        if (slot.ended || !job || job.id !== m.id) return;
        m.out.forEach((r, k) => {
          const i = slot.sent[m.from + k];
          job.results[i] = r.ok ? { ok: true, value: r.value } : { ok: false, error: rebuild(r.error ?? {}) };
        });
        if (!m.done) return;
        job.left = [];
        this.release(slot);
        job.done(job.results as Settled<unknown>[]);
      },
    );
    worker.on('error', (e) => this.lose(slot, () => new WorkerCrashError(slot.job?.task ?? '', e.message)));
    worker.on('exit', (code) => this.lose(slot, () => new WorkerCrashError(slot.job?.task ?? '', `its thread ended with ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  /** Hands waiting jobs to free threads; the first work starts all `size` threads, so a spare one is warm when another is held. */
  private pump() {
    if (!this.closed && this.queue.length) while (this.slots.length < this.o.size) this.spawn();
    while (this.queue.length && !this.closed) {
      let slot = this.slots.find((s) => !s.job && !s.ended);
      if (!slot && this.slots.length < this.o.size) slot = this.spawn();
      if (!slot) break;
      const job = this.next();
      slot.job = job;
      slot.sent = job.left.filter((i) => job.results[i] === undefined);
      const items = slot.sent.map((i) => job.items[i]);
      slot.worker.ref();
      try {
        slot.worker.postMessage({ id: job.id, task: job.task, items, common: job.common }, job.transfer ?? []);
      } catch (e) {
        // An item that cannot cross to a thread (a function, say): the job fails, the thread is fine.
        for (const i of slot.sent) job.results[i] = { ok: false, error: e as Error };
        job.left = [];
        this.release(slot);
        job.done(job.results as Settled<unknown>[]);
        continue;
      }
      this.startWatchdog();
    }
  }

  /**
   * The waiting job of the key served longest ago (the first of its key): one tenant's many jobs, or
   * jobs that each run to the deadline, take turns with the others' instead of going before them.
   */
  private next(): Job {
    let best = 0;
    for (let i = 1; i < this.queue.length; i++)
      if ((this.served.get(this.queue[i].key) ?? 0) < (this.served.get(this.queue[best].key) ?? 0)) best = i;
    const [job] = this.queue.splice(best, 1);
    this.served.set(job.key, ++this.handovers);
    if (this.served.size > 10_000) this.served.clear();
    return job;
  }

  private release(slot: Slot) {
    slot.job = null;
    slot.sent = [];
    slot.worker.unref();
    if (!this.slots.some((s) => s.job)) this.stopWatchdog();
    this.pump();
  }

  /**
   * A thread is gone (terminated at a deadline, or dead): the item it was on gets `error`, its other
   * unanswered items go back to the front of the queue, and a new thread starts if work waits.
   */
  private lose(slot: Slot, error: () => Error) {
    if (slot.ended) return;
    slot.ended = true;
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    this.replaced++;
    const job = slot.job;
    slot.job = null;
    const k = Atomics.load(slot.index, 0);
    const culprit = job && k >= 0 ? slot.sent[k] : undefined;
    if (job) {
      if (culprit !== undefined) job.results[culprit] = { ok: false, error: error() };
      else {
        // The thread died before running an item (its module failed to load): the job fails whole.
        for (const i of slot.sent) job.results[i] ??= { ok: false, error: error() };
      }
      job.left = job.left.filter((i) => job.results[i] === undefined);
      if (job.left.length) this.queue.unshift(job);
      else job.done(job.results as Settled<unknown>[]);
    }
    if (!this.slots.some((s) => s.job)) this.stopWatchdog();
    // A thread lost on an item is replaced now, not at the next work, so that one is warm when that
    // comes; one that died before any item (its module would not load) only at the next work.
    if (!this.closed && culprit !== undefined && this.slots.length < this.o.size) this.spawn();
    this.pump();
  }

  private startWatchdog() {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => this.check(), 10);
    this.watchdog.unref();
  }

  private stopWatchdog() {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** Terminates every thread whose item has run past the job's deadline (the thread's own clock, so a busy server thread does not stop a thread early). */
  private check() {
    const now = Date.now();
    for (const slot of [...this.slots]) {
      const job = slot.job;
      if (!job || slot.ended) continue;
      const k = Atomics.load(slot.index, 0);
      if (k < 0) continue;
      const began = Number(Atomics.load(slot.started, 0));
      if (now - began <= job.deadlineMs) continue;
      const task = job.task;
      const deadline = job.deadlineMs;
      this.lose(slot, () => new DeadlineError(task, deadline));
      void slot.worker.terminate();
    }
  }
}
