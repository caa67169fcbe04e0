import { describe, expect, it } from 'vitest';
import { bodyOf, initialOf, parseChannels } from './template-form.ts';

describe('the download template form', () => {
  it('reads channels typed with commas or spaces and refuses one out of range', () => {
    expect(parseChannels('0, 1 3,1')).toEqual([0, 1, 3]);
    expect(parseChannels('')).toEqual([]);
    expect(parseChannels('256')).toBeNull();
    expect(parseChannels('a')).toBeNull();
  });

  it('sends a "last hours" range without fixed times, and a fixed one without last hours', () => {
    const base = { ...initialOf(null, 1_000_000_000), name: ' t ', things_ids: ['d'], channels: '1', ids: '123, 0x18FEF100' };
    expect(bodyOf({ ...base, range_mode: 'last', last_hours: 6 })).toEqual({
      name: 't',
      things_ids: ['d'],
      format: 'csv',
      plugin_id: null,
      channels: [1],
      ids: [0x123, 0x18fef100],
      begin_time: null,
      end_time: null,
      last_hours: 6,
    });
    const fixed = bodyOf({ ...base, range_mode: 'fixed', fixed: [10, 20], format: 'asc', plugin_id: 'p' });
    expect([fixed.begin_time, fixed.end_time, fixed.last_hours, fixed.plugin_id]).toEqual([10, 20, null, null]);
  });

  it('opens a saved template with its lists as text and its range mode', () => {
    const v = initialOf(
      {
        id: 'x',
        name: 'n',
        things_ids: ['a'],
        format: 'csv',
        channels: [0, 2],
        ids: [0x7ff, 0x800],
        plugin_id: 'p',
        begin_time: 5,
        end_time: 9,
        last_hours: null,
        last_run_at: null,
        created_at: 0,
        updated_at: 0,
      },
      0,
    );
    expect([v.channels, v.ids, v.range_mode, v.fixed, v.plugin_id]).toEqual(['0, 2', '7FF, 00000800', 'fixed', [5, 9], 'p']);
  });
});
