import { describe, expect, it } from 'vitest';
import { lastIndexAtOrBefore, playbackPosition } from './playback.ts';

describe('playback', () => {
  it('finds the last sample at or before a time', () => {
    const t = [10, 20, 20, 30];
    expect(lastIndexAtOrBefore(t, 5)).toBe(-1);
    expect(lastIndexAtOrBefore(t, 10)).toBe(0);
    expect(lastIndexAtOrBefore(t, 25)).toBe(2);
    expect(lastIndexAtOrBefore(t, 99)).toBe(3);
  });
  it('advances data time by speed × wall time and stops at the end', () => {
    const anchor = { wall: 1_000, position: 5_000 };
    expect(playbackPosition(anchor, 1_500, 0.5, 10_000)).toBe(5_250);
    expect(playbackPosition(anchor, 1_500, 16, 100_000)).toBe(13_000);
    expect(playbackPosition(anchor, 9_000, 16, 10_000)).toBe(10_000);
  });
});
