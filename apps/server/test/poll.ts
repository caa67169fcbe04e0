import { inspect } from 'node:util';

export interface PollOptions {
  /** How long to keep trying, in milliseconds (5 s unless given). */
  ms?: number;
  /** What is being waited for, for the time-out's message (the source of `ok` unless given). */
  what?: string;
  /** Pause between two tries, in milliseconds. */
  every?: number;
}

/** At most this many characters of the last value go into the time-out's message. */
const SHOWN = 600;

/** `v` for a message: inspected (so undefined, Maps, bigints and cycles show), on one line, shortened. */
export function shortened(v: unknown, max = SHOWN): string {
  const s = inspect(v, { depth: 5, breakLength: Number.POSITIVE_INFINITY, maxArrayLength: 20, maxStringLength: max });
  return s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s;
}

/**
 * Calls `fn` until `ok` holds for its value and resolves with that value. When `ms` pass first it
 * rejects with an Error naming `what` and showing the last value, so a test never goes on with a
 * value that did not arrive.
 *
 * An `fn` (or `ok`) that throws is not retried: its error rejects the poll at once. A probe that
 * fails is a fault of its own, not a "not yet"; a probe that may legitimately fail for a while
 * catches that itself and returns a value `ok` refuses.
 */
export async function poll<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, options: PollOptions = {}): Promise<T> {
  const { ms = 5000, every = 50 } = options;
  const end = Date.now() + ms;
  let tries = 0;
  for (;;) {
    const v = await fn();
    tries++;
    if (ok(v)) return v;
    if (Date.now() > end) {
      const what = options.what ?? String(ok);
      throw new Error(`timed out after ${ms} ms (${tries} tries) waiting for ${what}; last value: ${shortened(v)}`);
    }
    await new Promise((r) => setTimeout(r, every));
  }
}
