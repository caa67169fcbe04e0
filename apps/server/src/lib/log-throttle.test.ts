import { describe, expect, it } from 'vitest';
import { LogThrottle } from './log-throttle.ts';

describe('LogThrottle', () => {
  it('lets the first line through, then one per interval however many events come', () => {
    let now = 1_000_000;
    const throttle = new LogThrottle(10_000, () => now);
    const logged: number[] = [];
    // An event every 100 ms for 35 s.
    for (let i = 0; i < 350; i++, now += 100) if (throttle.due()) logged.push(now - 1_000_000);
    expect(logged).toEqual([0, 10_000, 20_000, 30_000]);
  });

  it('lets a line through at once after a quiet spell, and not again within the interval', () => {
    let now = 0;
    const throttle = new LogThrottle(10_000, () => now);
    expect(throttle.due()).toBe(true);
    now = 9_999;
    expect(throttle.due()).toBe(false);
    now = 60_000;
    expect(throttle.due()).toBe(true);
    now = 60_001;
    expect(throttle.due()).toBe(false);
  });

  it('allows the first line even when the clock reads zero', () => {
    expect(new LogThrottle(10_000, () => 0).due()).toBe(true);
  });

  it('waits 10 s by default, on the wall clock', () => {
    const throttle = new LogThrottle();
    expect(throttle.due()).toBe(true);
    expect(throttle.due()).toBe(false);
  });
});
