import { describe, expect, it } from 'vitest';
import { attachment, exportFileName } from './export-name.ts';

const T = Date.UTC(2024, 0, 5, 8, 0, 0);

describe('export file names', () => {
  it('carry the device name, its ID and the time range in UTC', () => {
    expect(exportFileName({ name: 'Truck 7', third_things_id: '0123456789ABCDEF0123' }, 'uuid', T, T + 3_600_000, 'asc')).toBe(
      'Truck 7_0123456789ABCDEF0123_20240105T080000Z-20240105T090000Z.asc',
    );
  });

  it('keep names in any script and replace what file systems refuse', () => {
    expect(exportFileName({ name: '冷链车/1号: "A"', third_things_id: 'ABC' }, 'uuid', T, T + 1, 'trc')).toBe(
      '冷链车_1号_ _A__ABC_20240105T080000Z-20240105T080000Z.trc',
    );
    expect(exportFileName(null, 'uuid', T, T + 1000, 'log')).toBe('uuid_20240105T080000Z-20240105T080001Z.log');
  });

  it('are sent with an ASCII fallback and the UTF-8 name', () => {
    expect(attachment('冷链车_A.asc')).toBe(`attachment; filename="____A.asc"; filename*=UTF-8''${encodeURIComponent('冷链车_A.asc')}`);
  });
});
