import { describe, expect, it } from 'vitest';
import { isFirmwareVersion, upgradeStateKey, validSchedule } from './firmware-rules.ts';

describe('firmware rules', () => {
  it('accepts xx.xx.xx with one or two digits each', () => {
    expect(isFirmwareVersion('1.2.3')).toBe(true);
    expect(isFirmwareVersion('01.22.09')).toBe(true);
    expect(isFirmwareVersion('100.1.1')).toBe(false);
    expect(isFirmwareVersion('1.2')).toBe(false);
    expect(isFirmwareVersion('a.b.c')).toBe(false);
  });
  it('names states for translation', () => {
    expect(upgradeStateKey('flash success')).toBe('flashSuccess');
    expect(upgradeStateKey('busy')).toBe('busy');
  });
  it('refuses a schedule in the past', () => {
    expect(validSchedule(null, 10)).toBe(true);
    expect(validSchedule(5, 10)).toBe(false);
    expect(validSchedule(11, 10)).toBe(true);
  });
});
