import type { GpsPoint } from '@loggerhead/contract/schemas/gps.ts';
import { describe, expect, it } from 'vitest';
import { advance, formatDuration, positionAt } from './replay.ts';

const fix = (ts: number, lat: number, lon: number): GpsPoint => ({ ts, lat, lon, alt: null, speed: null, heading: null, sats: null });

describe('track replay', () => {
  const track = [fix(1000, 10, 20), fix(2000, 12, 20), fix(4000, 12, 24)];

  it('interpolates between the fixes around a moment and clamps to the ends', () => {
    expect(positionAt(track, 1500)).toEqual({ lat: 11, lon: 20, index: 0 });
    expect(positionAt(track, 3000)).toEqual({ lat: 12, lon: 22, index: 1 });
    expect(positionAt(track, 0)).toEqual({ lat: 10, lon: 20, index: 0 });
    expect(positionAt(track, 9999)).toEqual({ lat: 12, lon: 24, index: 2 });
    expect(positionAt([], 1)).toBeNull();
  });

  it('moves track time faster at a higher speed', () => {
    expect(advance(0, 1000, 1)).toBe(60_000);
    expect(advance(0, 1000, 16)).toBe(16 * 60_000);
    expect(advance(0, 1000, 0.5)).toBe(30_000);
  });

  it('writes durations as h:mm:ss', () => {
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(59)).toBe('0:00:59');
  });
});
