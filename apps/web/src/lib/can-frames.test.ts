import { describe, expect, it } from 'vitest';
import { canAddFrame, type FrameRow, frameErrors, toCommandFrames } from './can-frames.ts';

const row = (over: Partial<FrameRow>): FrameRow => ({
  key: 1,
  channel: 0,
  id: '123',
  ext: false,
  fd: false,
  brs: false,
  data: '',
  ...over,
});

describe('frameErrors', () => {
  it('accepts a classic frame of 0 and 8 bytes', () => {
    expect(frameErrors(row({ data: '' }))).toEqual([]);
    expect(frameErrors(row({ data: '11 22 33 44 55 66 77 88' }))).toEqual([]);
  });
  it('refuses a standard id above 7FF and accepts it extended up to 1FFFFFFF', () => {
    expect(frameErrors(row({ id: '800' }))).toEqual(['idStd']);
    expect(frameErrors(row({ id: '800', ext: true }))).toEqual([]);
    expect(frameErrors(row({ id: '20000000', ext: true }))).toEqual(['idExt']);
    expect(frameErrors(row({ id: 'xyz' }))).toEqual(['idHex']);
  });
  it('needs an even number of hex digits', () => {
    expect(frameErrors(row({ data: '123' }))).toEqual(['dataOdd']);
    expect(frameErrors(row({ data: 'GG' }))).toEqual(['dataHex']);
  });
  it('limits CAN to 8 bytes and CAN FD to the DLC lengths', () => {
    const nine = '00'.repeat(9);
    expect(frameErrors(row({ data: nine }))).toEqual(['canLength']);
    expect(frameErrors(row({ data: nine, fd: true }))).toEqual(['fdLength']);
    expect(frameErrors(row({ data: '00'.repeat(12), fd: true }))).toEqual([]);
    expect(frameErrors(row({ data: '00'.repeat(64), fd: true }))).toEqual([]);
    expect(frameErrors(row({ data: '00'.repeat(65), fd: true }))).toEqual(['fdLength']);
  });
  it('allows bit-rate switch only on CAN FD', () => {
    expect(frameErrors(row({ brs: true }))).toEqual(['brsNeedsFd']);
    expect(frameErrors(row({ brs: true, fd: true }))).toEqual([]);
  });
});

describe('frame list', () => {
  it('holds at most 100 frames', () => {
    expect(canAddFrame(99)).toBe(true);
    expect(canAddFrame(100)).toBe(false);
  });
  it('sends data without spaces, upper case', () => {
    expect(toCommandFrames([row({ id: '0x1a', data: 'aa bb' })])[0]).toMatchObject({ id: '1a', data: 'AABB', brs: false });
  });
});
