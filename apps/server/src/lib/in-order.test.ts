import { describe, expect, it } from 'vitest';
import { InOrder } from './in-order.ts';

describe('InOrder: settled in any order, released in the order taken in', () => {
  it('releases nothing until the head settles, then the settled run at the head', () => {
    const out: [number, unknown][] = [];
    const q = new InOrder<number>((n, err) => out.push([n, err]));
    const e = [1, 2, 3, 4].map((n) => q.add(n));
    q.settle(e[2]);
    q.settle(e[1], new Error('2 failed'));
    expect(out).toEqual([]);
    expect(q.length).toBe(4);
    q.settle(e[0]);
    expect(out).toEqual([
      [1, null],
      [2, new Error('2 failed')],
      [3, null],
    ]);
    expect(q.length).toBe(1);
    q.settle(e[3]);
    expect(out.map(([n]) => n)).toEqual([1, 2, 3, 4]);
    expect(q.length).toBe(0);
  });

  it('keeps the order over many items settled in reverse, and items added while others wait', () => {
    const out: number[] = [];
    const q = new InOrder<number>((n) => out.push(n));
    const first = Array.from({ length: 3000 }, (_, i) => q.add(i));
    for (let i = first.length - 1; i > 0; i--) q.settle(first[i]);
    const later = q.add(3000);
    q.settle(later);
    expect(out).toEqual([]);
    q.settle(first[0]);
    expect(out).toEqual(Array.from({ length: 3001 }, (_, i) => i));
    // After most of a long queue is released the rest still comes out in order.
    const more = Array.from({ length: 5000 }, (_, i) => q.add(i));
    for (let i = 0; i < 4000; i++) q.settle(more[i]);
    for (let i = 4999; i >= 4000; i--) q.settle(more[i]);
    expect(out.slice(3001)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(q.length).toBe(0);
  });
});
