import { describe, expect, it } from 'vitest';
import { poll, shortened } from './poll.ts';

describe('poll', () => {
  it('resolves with the first value ok accepts, and tries no more after it', async () => {
    let calls = 0;
    const got = await poll(
      async () => ++calls,
      (n) => n >= 3,
      { every: 1 },
    );
    expect(got).toBe(3);
    expect(calls).toBe(3);
  });

  it('takes a synchronous fn and returns at once when the first value is ok', async () => {
    const started = Date.now();
    expect(
      await poll(
        () => 'ready',
        (s) => s === 'ready',
        { ms: 10_000, every: 5_000 },
      ),
    ).toBe('ready');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('throws on time-out, naming what it waited for and showing the last value', async () => {
    let calls = 0;
    const started = Date.now();
    const err = await poll(
      () => ({ state: 'running', calls: ++calls }),
      (v) => v.state === 'done',
      { ms: 150, every: 10, what: 'the job to finish' },
    ).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toContain('timed out after 150 ms');
    expect(message).toContain('waiting for the job to finish');
    // The last value, not an earlier one: the call count in it is the number of tries.
    expect(message).toContain(`last value: { state: 'running', calls: ${calls} }`);
    expect(message).toContain(`(${calls} tries)`);
    expect(calls).toBeGreaterThan(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('names the predicate when no description is given', async () => {
    const err = await poll(
      () => 1,
      (n) => n > 1,
      { ms: 20, every: 5 },
    ).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/waiting for \(n\) => n > 1; last value: 1$/);
  });

  it('shortens a long last value', async () => {
    const big = 'x'.repeat(5000);
    const err = await poll(
      () => ({ big }),
      () => false,
      { ms: 10, every: 5, what: 'never' },
    ).catch((e: Error) => e);
    const message = (err as Error).message;
    expect(message.length).toBeLessThan(1000);
    expect(message).toMatch(/… \(\d+ characters\)$/);
  });

  it('does not retry a probe that throws: its error rejects the poll at once', async () => {
    let calls = 0;
    const started = Date.now();
    await expect(
      poll(
        () => {
          calls++;
          throw new Error('probe broke');
        },
        () => true,
        { ms: 5_000 },
      ),
    ).rejects.toThrow('probe broke');
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not retry an ok that throws either', async () => {
    let calls = 0;
    await expect(
      poll(
        () => ++calls,
        () => {
          throw new Error('predicate broke');
        },
        { ms: 5_000 },
      ),
    ).rejects.toThrow('predicate broke');
    expect(calls).toBe(1);
  });
});

describe('shortened', () => {
  it('shows values JSON cannot (undefined, bigint, Map, cycles) on one line', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(shortened(undefined)).toBe('undefined');
    expect(shortened(10n)).toBe('10n');
    expect(shortened(new Map([['k', [1, 2]]]))).toBe("Map(1) { 'k' => [ 1, 2 ] }");
    expect(shortened(cyclic)).toBe('<ref *1> { a: 1, self: [Circular *1] }');
    expect(shortened({ a: { b: 'c' } })).not.toContain('\n');
  });

  it('cuts at the given length and says how long the whole was', () => {
    const s = shortened('y'.repeat(100), 10);
    expect(s).toMatch(/^'y{9}… \(\d+ characters\)$/);
  });
});
