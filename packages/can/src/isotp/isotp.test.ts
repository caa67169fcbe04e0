import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFlowControl, IsoTpReceiver, IsoTpSender, msToStMin, segment, stMinToMs, transfer } from './isotp.ts';

const hex = (s: string) =>
  Uint8Array.from(
    s
      .replace(/\s+/g, '')
      .match(/../g)
      ?.map((b) => Number.parseInt(b, 16)) ?? [],
  );
const toHex = (b: Uint8Array) =>
  Buffer.from(b)
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1 ');
const seq = (n: number) => Uint8Array.from({ length: n }, (_, i) => i & 0xff);

describe('ISO-TP segmentation', () => {
  it('a short PDU is one single frame, padded with the fill byte', () => {
    expect(segment(hex('22 F1 90'), { fill: 0xaa }).map(toHex)).toEqual(['03 22 F1 90 AA AA AA AA']);
    expect(segment(hex('3E 00')).map(toHex)).toEqual(['02 3E 00']);
  });

  it('20 bytes become a first frame and two consecutive frames', () => {
    expect(segment(seq(20), { fill: 0x55 }).map(toHex)).toEqual([
      '10 14 00 01 02 03 04 05',
      '21 06 07 08 09 0A 0B 0C',
      '22 0D 0E 0F 10 11 12 13',
    ]);
    expect(segment(seq(21), { fill: 0x55 }).map(toHex).at(-1)).toBe('23 14 55 55 55 55 55 55');
  });

  it('sequence numbers wrap from F to 0', () => {
    const frames = segment(seq(6 + 7 * 17));
    expect(frames.slice(14, 18).map((f) => f[0])).toEqual([0x2e, 0x2f, 0x20, 0x21]);
  });

  it('a PDU over 4095 bytes uses the first-frame escape', () => {
    const frames = segment(seq(5000));
    expect(toHex(frames[0])).toBe('10 00 00 00 13 88 00 01');
    expect(frames[1][0]).toBe(0x21);
    expect(frames.length).toBe(1 + Math.ceil((5000 - 2) / 7));
  });

  it('CAN FD: the single-frame escape, padding to a valid length, long first frames', () => {
    const sf = segment(seq(30), { txDl: 64 });
    expect(sf.length).toBe(1);
    expect(toHex(sf[0].subarray(0, 4))).toBe('00 1E 00 01');
    expect(sf[0].length).toBe(32);
    const sf11 = segment(seq(11), { txDl: 64, fill: 0xcc });
    expect(sf11[0].length).toBe(16);
    expect(toHex(sf11[0].subarray(0, 2))).toBe('00 0B');
    expect(toHex(sf11[0].subarray(12))).toBe('0A CC CC CC');
    expect(segment(seq(62), { txDl: 64 })[0].length).toBe(64);
    const mf = segment(seq(63), { txDl: 64, fill: 0xcc });
    expect(toHex(mf[0].subarray(0, 3))).toBe('10 3F 00');
    expect(mf[0].length).toBe(64);
    expect(toHex(mf[1])).toBe('21 3E CC CC CC CC CC CC');
    expect(() => segment(seq(10), { txDl: 10 })).toThrow(/TX_DL/);
  });

  it('flow control frames and STmin', () => {
    expect(toHex(encodeFlowControl(0, 8, 20, { fill: 0xaa }))).toBe('30 08 14 AA AA AA AA AA');
    expect(decodeFrame(hex('31 00 00'))).toEqual({ type: 'flow', status: 1, blockSize: 0, stMin: 0 });
    expect(stMinToMs(0x14)).toBe(20);
    expect(stMinToMs(0xf3)).toBeCloseTo(0.3);
    expect(stMinToMs(0x80)).toBe(127);
    expect(stMinToMs(0xfa)).toBe(127);
    expect(msToStMin(0.5)).toBe(0xf5);
    expect(msToStMin(200)).toBe(0x7f);
  });
});

describe('ISO-TP reassembly and flow control', () => {
  it('the sender obeys block size and STmin from the receiver', () => {
    const s = new IsoTpSender(seq(40), { fill: 0 });
    const first = s.start();
    expect(first).toMatchObject({ kind: 'send', done: false });
    const b1 = s.onFlowControl(hex('30 02 0A'));
    expect(b1).toMatchObject({ kind: 'send', stMinMs: 10, done: false });
    expect(b1.kind === 'send' && b1.frames.map((f) => f[0])).toEqual([0x21, 0x22]);
    expect(s.onFlowControl(hex('31 00 00'))).toEqual({ kind: 'wait' });
    const b2 = s.onFlowControl(hex('30 00 00'));
    expect(b2.kind === 'send' && b2.frames.map((f) => f[0])).toEqual([0x23, 0x24, 0x25]);
    expect(b2).toMatchObject({ done: true });
    expect(new IsoTpSender(seq(40)).onFlowControl(hex('32 00 00'))).toMatchObject({ kind: 'error', reason: 'receiver overflow' });
  });

  it('the receiver answers the first frame and every block, and rebuilds the PDU', () => {
    const r = new IsoTpReceiver({ blockSize: 2, stMinMs: 5, fill: 0xaa });
    expect(r.onFrame(hex('10 14 00 01 02 03 04 05'))).toEqual({ kind: 'flow', frame: hex('30 02 05 AA AA AA AA AA') });
    expect(r.onFrame(hex('21 06 07 08 09 0A 0B 0C'))).toEqual({ kind: 'more' });
    expect(r.onFrame(hex('22 0D 0E 0F 10 11 12 13'))).toEqual({ kind: 'done', payload: seq(20) });
  });

  it('a wrong sequence number aborts; an oversized PDU gets an overflow', () => {
    const r = new IsoTpReceiver();
    r.onFrame(hex('10 14 00 01 02 03 04 05'));
    expect(r.onFrame(hex('22 0D 0E 0F 10 11 12 13'))).toMatchObject({ kind: 'error' });
    expect(r.onFrame(hex('21 00'))).toMatchObject({ kind: 'ignored' });
    const small = new IsoTpReceiver({ maxLength: 10 });
    expect(small.onFrame(hex('10 14 00 01 02 03 04 05'))).toEqual({ kind: 'flow', frame: hex('32 00 00') });
  });

  it('round-trips every size from 1 to 600 bytes on CAN and CAN FD, with block sizes', () => {
    for (const txDl of [8, 12, 64]) {
      for (let n = 1; n <= 600; n += n < 70 ? 1 : 37) {
        const p = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
        const out = transfer(p, { txDl, fill: 0xcc }, { blockSize: 3, fill: 0xcc });
        expect(out.payload).toEqual(p);
        for (const f of out.frames) expect(f.data.length <= 8 || [12, 16, 20, 24, 32, 48, 64].includes(f.data.length)).toBe(true);
      }
    }
  });
});
