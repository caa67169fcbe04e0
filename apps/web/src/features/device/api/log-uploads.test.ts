import { describe, expect, it } from 'vitest';
import { nextToSend, skippedPlaces, type UploadItem } from './log-uploads.ts';

const item = (key: string, state: UploadItem['state']): UploadItem => ({ key, state, percent: 0, file: new File(['x'], `${key}.log`) });

describe('log uploads', () => {
  it('sends one file at a time, in the order they were added', () => {
    expect(nextToSend([item('a', 'done'), item('b', 'queued'), item('c', 'queued')])?.key).toBe('b');
    expect(nextToSend([item('a', 'reading'), item('b', 'queued')])).toBeUndefined();
    expect(nextToSend([item('a', 'failed'), item('b', 'cancelled')])).toBeUndefined();
  });

  it('lists the skipped lines or bytes and how many more there were', () => {
    const base = { frames: 1, chunks: 1, bytes: 10, begin_time: 1, end_time: 2, format: 'candump' };
    expect(
      skippedPlaces({
        ...base,
        skipped: [
          { line: 2, reason: 'bad CAN id' },
          { line: 5, reason: 'odd number of data digits' },
        ],
        skipped_count: 7,
      }),
    ).toEqual({
      places: [
        { key: 'line', n: 2, reason: 'bad CAN id' },
        { key: 'line', n: 5, reason: 'odd number of data digits' },
      ],
      more: 5,
      byLine: true,
    });
    expect(
      skippedPlaces({ ...base, format: 'blf', skipped: [{ offset: 144, reason: 'object of impossible size' }], skipped_count: 1 }),
    ).toEqual({
      places: [{ key: 'byte', n: 144, reason: 'object of impossible size' }],
      more: 0,
      byLine: false,
    });
  });
});
