import { describe, expect, it } from 'vitest';
import { pageAllowed, pagerTotal, rowNumber } from './paging.ts';

describe('paging rules of spec §9', () => {
  it('allows a page only while page × size stays within 10000', () => {
    expect(pageAllowed(1000, 10)).toBe(true);
    expect(pageAllowed(1001, 10)).toBe(false);
    expect(pageAllowed(200, 50)).toBe(true);
    expect(pageAllowed(201, 50)).toBe(false);
    expect(pageAllowed(0, 10)).toBe(false);
  });

  it('offers no page that could not be fetched', () => {
    expect(pagerTotal(25, 10)).toBe(25);
    expect(pagerTotal(123_456, 10)).toBe(10_000);
    // 10000 / 30 = 333 whole pages: the 334th would need entries up to 10020.
    expect(pagerTotal(123_456, 30)).toBe(9_990);
  });

  it('numbers rows from 1 across pages', () => {
    expect(rowNumber(1, 10, 0)).toBe(1);
    expect(rowNumber(3, 20, 4)).toBe(45);
  });
});
