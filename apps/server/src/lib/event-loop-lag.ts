import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Seconds of one measuring window: the health check reports the last whole window and the current one. */
export const LAG_WINDOW_MS = 10_000;

export interface LagReport {
  /** 99th percentile of the event loop's delay, ms. */
  p99_ms: number;
  /** Longest delay, ms. */
  max_ms: number;
  /** Seconds the figures cover (the last whole window and the one under way). */
  window_s: number;
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

/**
 * How late the server's thread runs its callbacks (`perf_hooks.monitorEventLoopDelay`): every
 * request of every tenant waits behind whatever holds that thread, so this is the delay another
 * tenant feels. `report()` gives the p99 and the longest delay of the worse of the last whole window
 * and the one under way; at the end of a window whose longest delay passed `warnMs` the log warns once.
 */
export function eventLoopLag(o: { warnMs: number; log: { warn(obj: object, msg: string): void }; windowMs?: number }) {
  const windowMs = o.windowMs ?? LAG_WINDOW_MS;
  const now = monitorEventLoopDelay({ resolution: 10 });
  /** The last whole window's figures (a delay histogram cannot be merged into another). */
  let last: { p99: number; max: number } | null = null;
  let lastAt = Date.now();
  let windowStart = lastAt;
  now.enable();
  const figures = () => (now.count ? { p99: ms(now.percentile(99)), max: ms(now.max) } : null);
  const timer = setInterval(() => {
    const f = figures();
    if (f && f.max > o.warnMs)
      o.log.warn({ event_loop_p99_ms: f.p99, event_loop_max_ms: f.max, window_s: windowMs / 1000 }, 'event loop delayed');
    last = f;
    now.reset();
    windowStart = lastAt;
    lastAt = Date.now();
  }, windowMs);
  timer.unref();
  return {
    /** The worse of the last whole window and the one under way. */
    report(): LagReport {
      const f = figures();
      const covered = Math.round((Date.now() - (last ? windowStart : lastAt)) / 100) / 10;
      return {
        p99_ms: Math.max(f?.p99 ?? 0, last?.p99 ?? 0),
        max_ms: Math.max(f?.max ?? 0, last?.max ?? 0),
        window_s: covered,
      };
    },
    stop() {
      clearInterval(timer);
      now.disable();
    },
  };
}
export type EventLoopLag = ReturnType<typeof eventLoopLag>;
