import { describe, expect, it } from 'vitest';
import { FLAG } from '../live/frame-ring.ts';
import { frameIdText, frameKind } from './frame-text.ts';

const t = (k: string) =>
  ({ 'device.frame.std': 'Std', 'device.frame.ext': 'Ext', 'device.frame.remote': 'Remote', 'device.frame.error': 'Error frame' })[k] ?? k;

describe('frame text', () => {
  it('shows an error frame as an error frame, with no standard/extended id', () => {
    expect(frameKind(FLAG.err, t)).toBe('Error frame');
    expect(frameKind(FLAG.err | FLAG.fd | FLAG.tx, t)).toBe('Error frame FD');
    expect(frameIdText(0, FLAG.err)).toBe('—');
    expect(frameIdText(0x80, FLAG.err)).toBe('0x80');
  });

  it('shows data and remote frames with their id format', () => {
    expect(frameKind(FLAG.ext | FLAG.fd | FLAG.brs, t)).toBe('Ext FD BRS');
    expect(frameKind(FLAG.rtr, t)).toBe('Std Remote');
    expect(frameIdText(0x7b, 0)).toBe('07B');
    expect(frameIdText(0x18daf110, FLAG.ext)).toBe('18DAF110');
  });
});
