import { describe, expect, it } from 'vitest';
import { fileNameOf } from './file-download.ts';

describe('download file names', () => {
  it('reads the name from content-disposition', () => {
    expect(fileNameOf('attachment; filename="devices.csv"', 'x')).toBe('devices.csv');
    expect(fileNameOf("attachment; filename*=UTF-8''%E8%AE%BE%E5%A4%87.csv", 'x')).toBe('设备.csv');
    expect(fileNameOf(null, 'fallback.bin')).toBe('fallback.bin');
  });
});
