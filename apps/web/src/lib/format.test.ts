import { describe, expect, it } from 'vitest';
import {
  EMPTY,
  formatBytes,
  formatDate,
  formatDateTime,
  formatMegabytes,
  formatNumber,
  formatPercent,
  formatRecallSize,
} from './format.ts';

describe('formatBytes (spec §9: B/KB/MB/GB in steps of 1024, two decimals)', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 * 1024 - 1, '1024.00 KB'],
    [1024 * 1024, '1.00 MB'],
    [5.25 * 1024 * 1024, '5.25 MB'],
    [1024 ** 3, '1.00 GB'],
    [3 * 1024 ** 4, '3072.00 GB'],
    [-2048, '-2.00 KB'],
  ])('%d bytes -> %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('shows "--" for missing values', () => {
    expect(formatBytes(null)).toBe(EMPTY);
    expect(formatBytes(undefined)).toBe(EMPTY);
    expect(formatBytes(Number.NaN)).toBe(EMPTY);
  });

  it('takes megabytes for capacity figures', () => {
    expect(formatMegabytes(2 * 1024)).toBe('2.00 GB');
    expect(formatMegabytes(0.5)).toBe('512.00 KB');
  });
});

describe('formatRecallSize (spec §9: KB, MB above 1048576 bytes)', () => {
  it('switches to MB only above 1048576 bytes', () => {
    expect(formatRecallSize(512)).toBe('0.50 KB');
    expect(formatRecallSize(1_048_576)).toBe('1024.00 KB');
    expect(formatRecallSize(1_048_577)).toBe('1.00 MB');
    expect(formatRecallSize(60 * 1_048_576)).toBe('60.00 MB');
  });
});

describe('dates', () => {
  const local = new Date(2024, 1, 29, 7, 5, 9);
  it('formats local date and time', () => {
    expect(formatDateTime(local)).toBe('2024-02-29 07:05:09');
    expect(formatDateTime(local.getTime())).toBe('2024-02-29 07:05:09');
    expect(formatDate(local)).toBe('2024-02-29');
    expect(formatDateTime(local, 'HH:mm')).toBe('07:05');
  });
  it('shows "--" for missing or invalid dates', () => {
    expect(formatDateTime(null)).toBe(EMPTY);
    expect(formatDateTime('')).toBe(EMPTY);
    expect(formatDateTime('not a date')).toBe(EMPTY);
  });
});

describe('numbers', () => {
  it('groups thousands and fixes decimals on request', () => {
    expect(formatNumber(1234567.891, 'en', 2)).toBe('1,234,567.89');
    expect(formatNumber(1234567, 'zh')).toBe('1,234,567');
    expect(formatNumber(0.5, 'en', 2)).toBe('0.50');
    expect(formatNumber(202 * 0.1, 'en')).toBe('20.2');
    expect(formatNumber(-0.000123456789, 'en')).toBe('-0.000123456789');
    expect(formatNumber(null)).toBe(EMPTY);
  });
  it('prints ratios as percentages', () => {
    expect(formatPercent(0.12345)).toBe('12.35%');
    expect(formatPercent(1)).toBe('100.00%');
  });
});
