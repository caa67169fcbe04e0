import { describe, expect, it } from 'vitest';
import { haversine, tileConfig, validLatLon, validRadius, wrapLon } from './geo.ts';

describe('fence geometry helpers', () => {
  it('accepts coordinates only inside lat -90..90 and lon -180..180', () => {
    expect(validLatLon({ lat: 90, lon: -180 })).toBe(true);
    expect(validLatLon({ lat: 90.0001, lon: 0 })).toBe(false);
    expect(validLatLon({ lat: 0, lon: 180.5 })).toBe(false);
    expect(validLatLon({ lat: Number.NaN, lon: 0 })).toBe(false);
  });

  it('keeps the radius within 50-10000 m and wraps longitudes', () => {
    expect(validRadius(49)).toBe(false);
    expect(validRadius(50)).toBe(true);
    expect(validRadius(10_001)).toBe(false);
    expect(wrapLon(190)).toBeCloseTo(-170);
    expect(wrapLon(-185)).toBeCloseTo(175);
  });

  it('measures one degree of latitude as about 111 km', () => {
    expect(haversine({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeGreaterThan(111_000);
    expect(haversine({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeLessThan(111_400);
  });

  it('takes a tile URL only from a JSON link that names one', () => {
    expect(tileConfig('{"mapTileUrl":"https://t/{z}/{x}/{y}.png"}').url).toBe('https://t/{z}/{x}/{y}.png');
    expect(tileConfig('https://example.com').url).toBeNull();
    expect(tileConfig('').url).toBeNull();
  });
});
