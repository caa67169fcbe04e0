import { describe, expect, it } from 'vitest';
import { fromStep, newStep, StepError, toStep } from './routine-steps.ts';

describe('a send-CAN step', () => {
  it("takes the command sender's frame rows and sends them as common_fn.send_can frames", () => {
    const d = newStep('send_can');
    expect(d.frames).toHaveLength(1);
    const step = toStep(
      {
        ...d,
        frames: [
          { key: 1, channel: 1, id: '0x321', ext: false, fd: false, brs: false, data: 'de ad be ef' },
          { key: 2, channel: 0, id: '18FF0001', ext: true, fd: true, brs: true, data: '00112233445566778899AABB' },
        ],
      },
      0,
    );
    expect(step).toEqual({
      type: 'send_can',
      params: {
        frames: [
          { channel: 1, id: '321', ext: false, fd: false, brs: false, data: 'DEADBEEF' },
          { channel: 0, id: '18FF0001', ext: true, fd: true, brs: true, data: '00112233445566778899AABB' },
        ],
      },
    });
  });

  it('refuses a row the command sender would refuse', () => {
    const d = newStep('send_can');
    const bad = (row: Partial<(typeof d.frames)[number]>) => () =>
      toStep({ ...d, frames: [{ ...d.frames[0], id: '100', data: '00', ...row }] }, 2);
    expect(bad({})).not.toThrow();
    expect(bad({ id: '800' })).toThrow(StepError);
    expect(bad({ data: '001' })).toThrow(StepError);
    expect(bad({ data: '00'.repeat(9) })).toThrow(StepError);
    expect(() => toStep({ ...d, frames: [] }, 0)).toThrow(StepError);
  });

  it('opens a saved step with its frames as rows (ids in hex)', () => {
    const d = fromStep({
      type: 'send_can',
      params: { frames: [{ channel: 2, id: 0x321, ext: false, fd: false, brs: false, data: 'DEADBEEF' }], mode: 'once' },
    });
    expect(d.frames).toEqual([{ key: 1, channel: 2, id: '321', ext: false, fd: false, brs: false, data: 'DEADBEEF' }]);
  });
});
