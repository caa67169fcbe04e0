/**
 * ISO 15765-2 (ISO-TP) transport: segmentation of a PDU into CAN / CAN FD frames and reassembly,
 * with flow control (block size, STmin), fill byte, the escape sequences for long single frames
 * (CAN FD) and for first frames over 4095 bytes. Pure: bytes in, bytes out, no timers — the
 * caller waits STmin and applies N_Bs / N_Cr time-outs.
 */
import { FD_LENGTHS } from '../frame.ts';

export interface IsoTpOptions {
  /** Frame data length used for sending (TX_DL): 8 for classic CAN, 12-64 (a CAN FD length) for CAN FD. */
  txDl?: number;
  /** Padding byte; null pads nothing on classic CAN (CAN FD frames are always padded up to a valid length, with 0xCC). */
  fill?: number | null;
}

export const FlowStatus = { continue: 0, wait: 1, overflow: 2 } as const;
export type FlowStatusValue = (typeof FlowStatus)[keyof typeof FlowStatus];

export type IsoTpFrame =
  | { type: 'single'; payload: Uint8Array }
  | { type: 'first'; length: number; data: Uint8Array }
  | { type: 'consecutive'; sn: number; data: Uint8Array }
  | { type: 'flow'; status: FlowStatusValue; blockSize: number; stMin: number }
  | { type: 'invalid'; reason: string };

const DEFAULT_FD_FILL = 0xcc;

function txDlOf(o: IsoTpOptions): number {
  const dl = o.txDl ?? 8;
  if (dl < 8 || !(FD_LENGTHS as readonly number[]).includes(dl))
    throw new RangeError(`TX_DL must be 8 or a CAN FD length up to 64, got ${dl}`);
  return dl;
}

/** Pads a frame: to 8 bytes (classic, when a fill byte is set), or up to the next CAN FD length. */
export function pad(frame: Uint8Array, o: IsoTpOptions): Uint8Array {
  const len = frame.length;
  let target = len;
  if (len > 8) target = FD_LENGTHS.find((l) => l >= len) ?? 64;
  else if (o.fill !== null && o.fill !== undefined) target = 8;
  if (target === len) return frame;
  const out = new Uint8Array(target).fill(len > 8 ? (o.fill ?? DEFAULT_FD_FILL) : (o.fill ?? 0));
  out.set(frame);
  return out;
}

/** STmin byte → milliseconds: 0x00-0x7F ms, 0xF1-0xF9 100-900 µs; reserved values count as 127 ms (ISO 15765-2 §9.6.5.4). */
export function stMinToMs(b: number): number {
  if (b >= 0 && b <= 0x7f) return b;
  if (b >= 0xf1 && b <= 0xf9) return (b - 0xf0) / 10;
  return 0x7f;
}

/** Milliseconds → STmin byte (sub-millisecond values as 100-900 µs). */
export function msToStMin(ms: number): number {
  if (ms > 0 && ms < 1) return 0xf0 + Math.max(1, Math.min(9, Math.round(ms * 10)));
  return Math.max(0, Math.min(0x7f, Math.round(ms)));
}

export function encodeFlowControl(status: FlowStatusValue, blockSize: number, stMin: number, o: IsoTpOptions = {}): Uint8Array {
  return pad(Uint8Array.of(0x30 | status, blockSize & 0xff, stMin & 0xff), { ...o, txDl: 8 });
}

/** Splits a PDU into the frames that carry it: one single frame, or a first frame and consecutive frames. */
export function segment(payload: Uint8Array, o: IsoTpOptions = {}): Uint8Array[] {
  const dl = txDlOf(o);
  const n = payload.length;
  if (n === 0) throw new RangeError('an ISO-TP PDU has at least one byte');
  if (n > 0xffffffff) throw new RangeError('PDU too long');
  if (n <= 7) {
    const f = new Uint8Array(n + 1);
    f[0] = n;
    f.set(payload, 1);
    return [pad(f, o)];
  }
  if (dl > 8 && n <= dl - 2) {
    // CAN FD single frame escape: 0x00, SF_DL.
    const f = new Uint8Array(n + 2);
    f[1] = n;
    f.set(payload, 2);
    return [pad(f, o)];
  }
  const frames: Uint8Array[] = [];
  const head =
    n <= 4095
      ? Uint8Array.of(0x10 | (n >> 8), n & 0xff)
      : Uint8Array.of(0x10, 0, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  const firstData = dl - head.length;
  const ff = new Uint8Array(dl);
  ff.set(head);
  ff.set(payload.subarray(0, firstData), head.length);
  frames.push(ff);
  let sn = 1;
  for (let at = firstData; at < n; at += dl - 1) {
    const chunk = payload.subarray(at, Math.min(n, at + dl - 1));
    const cf = new Uint8Array(chunk.length + 1);
    cf[0] = 0x20 | sn;
    cf.set(chunk, 1);
    frames.push(pad(cf, o));
    sn = (sn + 1) & 0x0f;
  }
  return frames;
}

/** What one received frame (its CAN data bytes) is. */
export function decodeFrame(f: Uint8Array): IsoTpFrame {
  if (f.length === 0) return { type: 'invalid', reason: 'empty frame' };
  const pci = f[0] >> 4;
  switch (pci) {
    case 0: {
      let len = f[0] & 0x0f;
      let start = 1;
      if (len === 0) {
        if (f.length <= 8) return { type: 'invalid', reason: 'single frame length 0' };
        len = f[1];
        start = 2;
        if (len === 0) return { type: 'invalid', reason: 'single frame length 0' };
      } else if (f.length > 8) return { type: 'invalid', reason: 'CAN FD single frame needs the escape' };
      if (start + len > f.length) return { type: 'invalid', reason: 'single frame shorter than its length' };
      return { type: 'single', payload: f.slice(start, start + len) };
    }
    case 1: {
      let len = ((f[0] & 0x0f) << 8) | f[1];
      let start = 2;
      if (len === 0) {
        if (f.length < 6) return { type: 'invalid', reason: 'first frame too short' };
        len = ((f[2] << 24) >>> 0) + (f[3] << 16) + (f[4] << 8) + f[5];
        start = 6;
      }
      if (len < 8) return { type: 'invalid', reason: 'first frame length under 8' };
      return { type: 'first', length: len, data: f.slice(start) };
    }
    case 2:
      return { type: 'consecutive', sn: f[0] & 0x0f, data: f.slice(1) };
    case 3: {
      const status = f[0] & 0x0f;
      if (status > 2 || f.length < 3) return { type: 'invalid', reason: 'bad flow control' };
      return { type: 'flow', status: status as FlowStatusValue, blockSize: f[1], stMin: f[2] };
    }
    default:
      return { type: 'invalid', reason: `unknown PCI ${pci}` };
  }
}

export type SenderStep =
  /** Send these frames, waiting `stMinMs` between them; then wait for a flow control frame unless `done`. */
  | { kind: 'send'; frames: Uint8Array[]; stMinMs: number; done: boolean }
  /** The receiver asked to wait: wait for the next flow control frame (N_Bs). */
  | { kind: 'wait' }
  | { kind: 'error'; reason: string };

/** Sends one PDU: `start()` gives the first frame(s), each flow control frame gives the next block. */
export class IsoTpSender {
  private readonly frames: Uint8Array[];
  private next = 1;

  constructor(
    payload: Uint8Array,
    readonly opts: IsoTpOptions = {},
  ) {
    this.frames = segment(payload, opts);
  }

  get multiFrame() {
    return this.frames.length > 1;
  }

  start(): SenderStep {
    return { kind: 'send', frames: [this.frames[0]], stMinMs: 0, done: this.frames.length === 1 };
  }

  onFlowControl(fc: Uint8Array): SenderStep {
    const d = decodeFrame(fc);
    if (d.type !== 'flow') return { kind: 'error', reason: 'expected a flow control frame' };
    if (d.status === FlowStatus.overflow) return { kind: 'error', reason: 'receiver overflow' };
    if (d.status === FlowStatus.wait) return { kind: 'wait' };
    const end = d.blockSize === 0 ? this.frames.length : Math.min(this.frames.length, this.next + d.blockSize);
    const out = this.frames.slice(this.next, end);
    this.next = end;
    return { kind: 'send', frames: out, stMinMs: stMinToMs(d.stMin), done: this.next >= this.frames.length };
  }
}

export type ReceiverStep =
  | { kind: 'done'; payload: Uint8Array }
  /** Send this flow control frame, then keep receiving. */
  | { kind: 'flow'; frame: Uint8Array }
  | { kind: 'more' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'error'; reason: string };

export interface ReceiverOptions extends IsoTpOptions {
  /** Block size announced in flow control (0 = no further flow control). */
  blockSize?: number;
  /** STmin announced in flow control, ms. */
  stMinMs?: number;
  /** Longest PDU accepted; a longer first frame gets an overflow flow control. */
  maxLength?: number;
}

/** Reassembles PDUs from received frames, answering first frames and full blocks with flow control. */
export class IsoTpReceiver {
  private buf: Uint8Array | null = null;
  private have = 0;
  private sn = 0;
  private inBlock = 0;

  constructor(readonly opts: ReceiverOptions = {}) {}

  private fc(status: FlowStatusValue) {
    return encodeFlowControl(status, this.opts.blockSize ?? 0, msToStMin(this.opts.stMinMs ?? 0), this.opts);
  }

  onFrame(f: Uint8Array): ReceiverStep {
    const d = decodeFrame(f);
    switch (d.type) {
      case 'single':
        this.buf = null;
        return { kind: 'done', payload: d.payload };
      case 'first': {
        if (d.length > (this.opts.maxLength ?? 0xffffffff)) {
          this.buf = null;
          return { kind: 'flow', frame: this.fc(FlowStatus.overflow) };
        }
        this.buf = new Uint8Array(d.length);
        const take = Math.min(d.length, d.data.length);
        this.buf.set(d.data.subarray(0, take));
        this.have = take;
        this.sn = 1;
        this.inBlock = 0;
        return { kind: 'flow', frame: this.fc(FlowStatus.continue) };
      }
      case 'consecutive': {
        if (!this.buf) return { kind: 'ignored', reason: 'consecutive frame without a first frame' };
        if (d.sn !== this.sn) {
          this.buf = null;
          return { kind: 'error', reason: `wrong sequence number ${d.sn}, expected ${this.sn}` };
        }
        const take = Math.min(this.buf.length - this.have, d.data.length);
        this.buf.set(d.data.subarray(0, take), this.have);
        this.have += take;
        this.sn = (this.sn + 1) & 0x0f;
        if (this.have >= this.buf.length) {
          const payload = this.buf;
          this.buf = null;
          return { kind: 'done', payload };
        }
        const bs = this.opts.blockSize ?? 0;
        if (bs > 0 && ++this.inBlock >= bs) {
          this.inBlock = 0;
          return { kind: 'flow', frame: this.fc(FlowStatus.continue) };
        }
        return { kind: 'more' };
      }
      case 'flow':
        return { kind: 'ignored', reason: 'flow control frame while receiving' };
      default:
        return { kind: 'error', reason: d.reason };
    }
  }
}

/**
 * Carries one PDU from a sender to a receiver frame by frame, in memory (a bus without time):
 * returns the reassembled PDU and every frame that crossed, in order, for traces and tests.
 */
export function transfer(
  payload: Uint8Array,
  tx: IsoTpOptions,
  rx: ReceiverOptions,
): { payload: Uint8Array; frames: { dir: 'tx' | 'rx'; data: Uint8Array }[] } {
  const s = new IsoTpSender(payload, tx);
  const r = new IsoTpReceiver(rx);
  const frames: { dir: 'tx' | 'rx'; data: Uint8Array }[] = [];
  let step = s.start();
  for (let guard = 0; guard < 1_000_000; guard++) {
    if (step.kind === 'error') throw new Error(step.reason);
    if (step.kind === 'wait') throw new Error('receiver asked to wait');
    let fc: Uint8Array | null = null;
    for (const f of step.frames) {
      frames.push({ dir: 'tx', data: f });
      const got = r.onFrame(f);
      if (got.kind === 'done') return { payload: got.payload, frames };
      if (got.kind === 'error') throw new Error(got.reason);
      if (got.kind === 'flow') {
        frames.push({ dir: 'rx', data: got.frame });
        fc = got.frame;
      }
    }
    if (!fc) throw new Error('sender stopped before the PDU was complete');
    step = s.onFlowControl(fc);
  }
  throw new Error('transfer did not end');
}
