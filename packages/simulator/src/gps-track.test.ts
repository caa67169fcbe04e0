import { describe, expect, it } from 'vitest';
import { readGpsCsv, timeShift } from './gps-track.ts';

describe('GPS track CSV', () => {
  it('reads ISO and epoch-second times, optional speed and header, and sorts by time', () => {
    const r = readGpsCsv(
      ['# a drive', 'time,lat,lon,speed', '2026-01-05T08:00:10+08:00,31.2310,121.4740', '', '1767571205.5,31.2304,121.4737,42.5'].join(
        '\r\n',
      ),
    );
    expect(r.error).toBeUndefined();
    expect(r.fixes).toEqual([
      { ts: 1767571205500, lat: 31.2304, lon: 121.4737, speed: 42.5 },
      { ts: Date.UTC(2026, 0, 5, 0, 0, 10), lat: 31.231, lon: 121.474 },
    ]);
  });

  it.each([
    ['2026-01-05T08:00:00Z,91,121', 'line 1: latitude must be -90..90'],
    ['2026-01-05T08:00:00Z,31,-180.5', 'line 1: longitude must be -180..180'],
    ['2026-01-05 08:00:00,31,121', 'line 1: time "2026-01-05 08:00:00" is neither ISO 8601 nor epoch seconds'],
    ['2026-01-05T08:00:00,31,121', 'line 1: time "2026-01-05T08:00:00" is neither ISO 8601 nor epoch seconds'],
    ['1767571205,31', 'line 1: expected time,lat,lon[,speed]'],
    ['1767571205,31,121,-3', 'line 1: speed must be a number ≥ 0 (km/h)'],
    ['time,lat,lon', 'no fixes'],
  ])('refuses %s', (text, error) => {
    expect(readGpsCsv(text)).toEqual({ fixes: [], error });
  });

  it('moves times like the frame log: a fast replay ends at now, a paced one starts at now', () => {
    const now = Date.now();
    expect(timeShift(1000, 5000, { keepTime: true })).toBe(0);
    expect(timeShift(1000, 5000, {}) + 5000).toBeGreaterThanOrEqual(now);
    expect(timeShift(1000, 5000, {}) + 5000).toBeLessThan(now + 1000);
    expect(timeShift(1000, 5000, { realtime: true }) + 1000).toBeGreaterThanOrEqual(now);
    expect(timeShift(1000, 5000, { loop: true }) + 1000).toBeLessThan(now + 1000);
  });
});
