import { describe, expect, it } from 'vitest';
import { formatLocalTime, isTimeZone } from './local-time.ts';

describe('formatLocalTime', () => {
  const t = Date.UTC(2026, 0, 5, 8, 0, 0, 123);

  it('writes the wall-clock time of the zone with its offset', () => {
    expect(formatLocalTime(t, 'Asia/Shanghai')).toBe('2026-01-05 16:00:00.123 (UTC+08:00)');
    expect(formatLocalTime(t, 'UTC')).toBe('2026-01-05 08:00:00.123 (UTC+00:00)');
    expect(formatLocalTime(t, 'America/New_York')).toBe('2026-01-05 03:00:00.123 (UTC-05:00)');
  });

  it('follows daylight saving time and crosses midnight', () => {
    expect(formatLocalTime(Date.UTC(2026, 6, 1, 22, 30), 'Europe/Berlin')).toBe('2026-07-02 00:30:00.000 (UTC+02:00)');
    expect(formatLocalTime(Date.UTC(2026, 0, 1, 0, 0), 'Asia/Kolkata')).toBe('2026-01-01 05:30:00.000 (UTC+05:30)');
  });

  it('knows zone names', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
