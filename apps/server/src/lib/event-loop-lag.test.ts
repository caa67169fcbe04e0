import { describe, expect, it } from 'vitest';
import { eventLoopLag } from './event-loop-lag.ts';

/** Holds this thread for `ms` (what a long synchronous task does to every request). */
function hold(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event loop lag', () => {
  it('reports a hold of the thread, warns once at the end of its window, and forgets it two windows later', async () => {
    const warned: { obj: Record<string, number>; msg: string }[] = [];
    const lag = eventLoopLag({
      warnMs: 100,
      windowMs: 400,
      log: { warn: (obj, msg) => warned.push({ obj: obj as Record<string, number>, msg }) },
    });
    try {
      await sleep(50);
      hold(300);
      await sleep(20);
      const r = lag.report();
      expect(r.max_ms).toBeGreaterThanOrEqual(250);
      expect(r.p99_ms).toBeGreaterThanOrEqual(250);
      // The window under way ends: one warning names the hold.
      await sleep(400);
      expect(warned).toHaveLength(1);
      expect(warned[0].msg).toBe('event loop delayed');
      expect(warned[0].obj.event_loop_max_ms).toBeGreaterThanOrEqual(250);
      // Still reported from the last whole window…
      expect(lag.report().max_ms).toBeGreaterThanOrEqual(250);
      // …and gone once two windows have passed without a hold.
      await sleep(900);
      expect(lag.report().max_ms).toBeLessThan(250);
      expect(lag.report().window_s).toBeGreaterThan(0.3);
    } finally {
      lag.stop();
    }
  });
});
