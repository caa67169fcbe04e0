import { describe, expect, it } from 'vitest';
import { formatRecallSize } from '../../../lib/format.ts';
import { batchLimit, canRecall, isRecallRunning, recallStep, storedName } from './recall-rules.ts';

describe('recall rules', () => {
  it('disables recall and delete for an empty file', () => {
    expect(canRecall(0)).toBe(false);
    expect(canRecall(1)).toBe(true);
  });
  it('limits a batch by the package, never above 50', () => {
    expect(batchLimit(10)).toBe(10);
    expect(batchLimit(80)).toBe(50);
    expect(batchLimit(null)).toBe(50);
    expect(batchLimit(0)).toBe(0);
  });
  it('walks the spec steps in order and stops at the final states', () => {
    expect(['sending', 'device', 'fetching', 'done'].map((s) => recallStep(s as 'done'))).toEqual([0, 1, 2, 3]);
    expect(recallStep('failed')).toBe(-1);
    expect(isRecallRunning({ state: 'fetching' })).toBe(true);
    expect(isRecallRunning({ state: 'cancelled' })).toBe(false);
  });
  it('shows sizes in KB, and MB only above 1048576 bytes', () => {
    expect(formatRecallSize(1_048_576)).toBe('1024.00 KB');
    expect(formatRecallSize(1_048_577)).toBe('1.00 MB');
  });
  it('names recalled files by device and file name', () => {
    expect(storedName('abc', 'x.blf')).toBe('abc_x.blf');
  });
});
