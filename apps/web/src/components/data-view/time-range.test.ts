import { describe, expect, it } from 'vitest';
import { shortcutRange } from './time-range.ts';

describe('date-range shortcuts of spec §9', () => {
  const now = Date.UTC(2024, 5, 30, 12, 0, 0);
  it.each([
    ['hour', 1],
    ['day', 24],
    ['week', 7 * 24],
    ['month', 30 * 24],
    ['threeMonths', 90 * 24],
    ['halfYear', 180 * 24],
    ['year', 365 * 24],
  ] as const)('%s spans %i hours and ends now', (key, hours) => {
    const [begin, end] = shortcutRange(key, now);
    expect(end).toBe(now);
    expect((end - begin) / 3_600_000).toBe(hours);
  });
});
