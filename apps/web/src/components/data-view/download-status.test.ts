import { describe, expect, it } from 'vitest';
import { phaseOf, statusKey } from './download-status.ts';

describe('download task status', () => {
  it('names each wire code of spec §4', () => {
    expect(statusKey(1)).toBe('device.progress.status.1');
    expect(statusKey(4)).toBe('device.progress.status.4');
    expect(statusKey(2)).toBe('device.progress.status.2');
    expect(statusKey(5)).toBe('device.progress.status.5');
    expect(statusKey(3)).toBe('device.progress.status.3');
    expect(statusKey(99)).toBe('device.progress.status.1');
  });

  it('is done only when the task says done at 100 %', () => {
    expect(phaseOf(3, 100)).toBe('done');
    expect(phaseOf(3, 99)).toBe('running');
    expect(phaseOf(5, 100)).toBe('running');
    expect(phaseOf(6, 40)).toBe('cancelled');
    expect(phaseOf(7, 10)).toBe('failed');
  });
});
