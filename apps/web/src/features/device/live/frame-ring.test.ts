import { describe, expect, it } from 'vitest';
import { FrameRing, type LiveFrame } from './frame-ring.ts';

const frame = (n: number): LiveFrame => [1_700_000_000_000_000 + n, n % 2, 0x100 + n, 0, n.toString(16).padStart(2, '0')];
const ids = (r: FrameRing) => Array.from({ length: r.length }, (_, i) => r.id[r.slot(i)]);

describe('live frame ring', () => {
  it('keeps frames in arrival order until full', () => {
    const r = new FrameRing(4);
    r.push([frame(1), frame(2)]);
    r.push([frame(3)]);
    expect(r.length).toBe(3);
    expect(ids(r)).toEqual([0x101, 0x102, 0x103]);
    expect(r.data[r.slot(2)]).toBe('03');
  });

  it('drops the oldest frames when full and keeps counting', () => {
    const r = new FrameRing(3);
    r.push([frame(1), frame(2)]);
    r.push([frame(3), frame(4), frame(5)]);
    expect(ids(r)).toEqual([0x103, 0x104, 0x105]);
    expect(Array.from({ length: 3 }, (_, i) => r.seq[r.slot(i)])).toEqual([3, 4, 5]);
    expect(r.total).toBe(5);
  });

  it('takes a batch larger than itself by keeping its newest frames', () => {
    const r = new FrameRing(2);
    r.push([frame(1), frame(2), frame(3), frame(4), frame(5)]);
    expect(ids(r)).toEqual([0x104, 0x105]);
    expect(r.seq[r.slot(1)]).toBe(5);
    r.clear();
    expect(r.length).toBe(0);
    expect(r.total).toBe(0);
  });

  it('gives back the µs of a time sent in ms with the µs as the fraction', () => {
    const r = new FrameRing(4);
    const us = [1_767_607_200_123_457, 1_767_607_200_123_458, 1_799_999_999_999_999];
    r.push(us.map((t, i): LiveFrame => [t / 1000, 0, i, 0, '']));
    expect(Array.from({ length: 3 }, (_, i) => r.tsUs(r.slot(i)))).toEqual(us);
  });

  it('holds 10000 frames pushed at 5000 per batch without losing order', () => {
    const r = new FrameRing(10_000);
    for (let b = 0; b < 5; b++) r.push(Array.from({ length: 5000 }, (_, i) => frame(b * 5000 + i)));
    expect(r.length).toBe(10_000);
    expect(r.seq[r.slot(0)]).toBe(15_001);
    expect(r.ts[r.slot(9_999)] - r.ts[r.slot(0)]).toBe(9_999);
  });
});
