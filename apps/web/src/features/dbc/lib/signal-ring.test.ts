import { describe, expect, it } from 'vitest';
import { SignalRing, thinForChart } from './signal-ring.ts';

describe('SignalRing', () => {
  it('keeps pushed samples in time order without duplicates, bounded to its capacity', () => {
    const r = new SignalRing(100);
    expect(r.push([1, 2, 3], [10, 20, 30])).toBe(3);
    // An overlapping or late push adds only what is newer.
    expect(r.push([2, 3, 4, 3.5], [0, 0, 40, 0])).toBe(1);
    expect(r.t).toEqual([1, 2, 3, 4]);
    expect(r.lastValue()).toBe(40);
    for (let k = 0; k < 10; k++)
      r.push(
        Array.from({ length: 50 }, (_, i) => 5 + k * 50 + i),
        Array.from({ length: 50 }, (_, i) => k * 50 + i),
      );
    expect(r.size).toBeLessThanOrEqual(125);
    expect(r.size).toBeGreaterThanOrEqual(100);
    expect(r.t[r.t.length - 1]).toBe(504);
    expect(r.since(500).t).toEqual([500, 501, 502, 503, 504]);
  });

  it('puts seeded history before the live samples, marking a bucket mean as approximate until a sample arrives', () => {
    const r = new SignalRing(100);
    r.seed([1, 2, 3], [1, 2, 3], true);
    expect(r.approx).toBe(true);
    r.push([10], [100]);
    expect(r.approx).toBe(false);
    const s = new SignalRing(100);
    s.push([10, 11], [5, 6]);
    s.seed([8, 9, 10, 11], [1, 2, 3, 4], true);
    expect(s.t).toEqual([8, 9, 10, 11]);
    expect(s.v).toEqual([1, 2, 5, 6]);
    expect(s.approx).toBe(false);
  });
});

describe('thinForChart', () => {
  it('keeps extremes and the newest point within the limit', () => {
    const t = Array.from({ length: 10_000 }, (_, i) => i);
    const v = t.map((i) => (i === 4321 ? -500 : Math.cos(i / 100)));
    const x = thinForChart(t, v, 400);
    expect(x.t.length).toBeLessThanOrEqual(400);
    expect(Math.min(...x.v)).toBe(-500);
    expect(x.t[x.t.length - 1]).toBe(9999);
    expect(x.t.every((a, i) => i === 0 || a > x.t[i - 1])).toBe(true);
    expect(thinForChart([1, 2], [3, 4], 10)).toEqual({ t: [1, 2], v: [3, 4] });
  });
});
