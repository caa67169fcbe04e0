import { describe, expect, it } from 'vitest';
import { formatCanId, formatMicroTime, parseIdList, spacedHex } from './can-text.ts';

describe('CAN text', () => {
  it('spaces payload bytes', () => {
    expect(spacedHex('0102AB')).toBe('01 02 AB');
    expect(spacedHex('')).toBe('');
  });

  it('writes ids like candump', () => {
    expect(formatCanId(0x7b, false)).toBe('07B');
    expect(formatCanId(0x18daf110, true)).toBe('18DAF110');
  });

  it('reads typed ids as hex, refuses junk and more than 8', () => {
    expect(parseIdList('0x123, 1a0 7FF')).toEqual([0x123, 0x1a0, 0x7ff]);
    expect(parseIdList('')).toEqual([]);
    expect(parseIdList('12G')).toBeNull();
    expect(parseIdList('20000000')).toBeNull();
    expect(parseIdList('1 2 3 4 5 6 7 8 9')).toBeNull();
  });

  it('keeps microseconds of a timestamp', () => {
    const local = new Date(2024, 0, 2, 3, 4, 5, 678).getTime();
    expect(formatMicroTime(local * 1000 + 901)).toBe('03:04:05.678901');
    expect(formatMicroTime(local * 1000 + 901, true)).toBe('2024-01-02 03:04:05.678901');
  });
});
