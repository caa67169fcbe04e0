import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineError, WorkerCrashError, WorkerPool } from './worker-pool.ts';

const fixture = new URL('./worker-pool.fixture.mjs', import.meta.url);
const pools: WorkerPool[] = [];
const pool = (o: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) => {
  const p = new WorkerPool({ module: fixture, size: 1, ...o });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** Ticks of a 10 ms timer on this thread while `work` runs: none if the thread was held. */
async function ticksDuring<T>(work: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  try {
    return { value: await work, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('worker pool', () => {
  it('runs a task off this thread and answers its value, with the init and the batch common', async () => {
    const p = pool({ init: { bound: 7 } });
    expect(await p.run('echo', { a: [1, 2] }, { deadlineMs: 5000, common: 'c' })).toEqual({
      item: { a: [1, 2] },
      init: { bound: 7 },
      common: 'c',
    });
  });

  it('terminates a thread stuck on one call at its deadline, replaces it, and this thread stays free meanwhile', async () => {
    const p = pool();
    const t0 = Date.now();
    const { value, ticks } = await ticksDuring(p.run('spin', { spin: true }, { deadlineMs: 300 }).catch((e: unknown) => e));
    expect(value).toBeInstanceOf(DeadlineError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    // The timer kept ticking while the thread spun: this thread was never held.
    expect(ticks).toBeGreaterThan(5);
    expect(p.replaced).toBe(1);
    // The replacement thread answers.
    expect(await p.run('spin', { n: 4 }, { deadlineMs: 5000 })).toBe(4);
  });

  it('holds each item of a batch to the deadline on its own: the stuck one ends alone, the others are answered', async () => {
    const p = pool();
    const items = [{ n: 1 }, { n: 2 }, { spin: true }, { n: 4 }, { spin: true }, { n: 6 }];
    const out = await p.runEach<number>('spin', items, { deadlineMs: 200 });
    expect(out.map((r) => (r.ok ? r.value : r.error.name))).toEqual([1, 2, 'DeadlineError', 4, 'DeadlineError', 6]);
    expect(p.replaced).toBe(2);
  });

  it('answers an item its error with its own fields, and the others of the batch their values', async () => {
    const p = pool();
    const out = await p.runEach('fail', [3], { deadlineMs: 5000 });
    expect(out[0].ok).toBe(false);
    const e = (out[0] as { error: Error & { code?: string; n?: number } }).error;
    expect(e.message).toBe('failed 3');
    expect(e).toMatchObject({ code: 'fixture.failed', n: 3 });
    expect(p.replaced).toBe(0);
  });

  it('a thread that runs out of its heap ends its item with a WorkerCrashError and is replaced', async () => {
    const p = pool({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    await expect(p.run('hog', null, { deadlineMs: 30_000 })).rejects.toBeInstanceOf(WorkerCrashError);
    expect(await p.run('spin', { n: 9 }, { deadlineMs: 5000 })).toBe(9);
  });

  it('queues work past its threads and runs it on the threads it has', async () => {
    const p = pool({ size: 2 });
    const out = await Promise.all(Array.from({ length: 6 }, (_, i) => p.run('spin', { n: i }, { deadlineMs: 5000 })));
    expect(out).toEqual([0, 1, 2, 3, 4, 5]);
    expect(p.threads).toBeLessThanOrEqual(2);
  });

  it("a free thread takes the job of the key served longest ago: one key's queue does not go before another's", async () => {
    const p = pool();
    const done: string[] = [];
    const job = (key: string, name: string, item: object) =>
      p
        .run('spin', item, { deadlineMs: 300, key })
        .catch(() => null)
        .then(() => done.push(name));
    await Promise.all([job('a', 'a1', { spin: true }), job('a', 'a2', { spin: true }), job('a', 'a3', { n: 3 }), job('b', 'b1', { n: 1 })]);
    expect(done).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('loads a TypeScript task module', async () => {
    const p = pool({ module: new URL('./worker-pool.fixture.ts', import.meta.url) });
    expect(await p.run('double', 21, { deadlineMs: 10_000 })).toBe(42);
  });
});
