import { CandumpParser } from '@loggerhead/can/logs/candump.ts';
import type { LogReadResult } from '@loggerhead/can/logs/types.ts';

/**
 * What a decoder needs of one frame. `data` is a view into a scratch buffer, valid during the call
 * only. `line[textStart, textEnd)` holds the bytes of the line's timestamp (`seconds.micros`) when
 * they are already what `loggerhead decode` prints, else textStart is -1; at least 3 more bytes of
 * the line follow them (to copy them a word at a time).
 */
export type FrameVisitor = (
  ts: number,
  channel: number,
  id: number,
  ext: boolean,
  data: Uint8Array,
  line: DataView,
  textStart: number,
  textEnd: number,
) => void;

const NO_LINE = new DataView(new ArrayBuffer(0));

const HEX = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[65 + i] = 10 + i;
    t[97 + i] = 10 + i;
  }
  return t;
})();

/**
 * candump -L reading for `loggerhead decode`, without an object per frame: the common line
 * `(1436509052.249713) can0 123#DEADBEEF R` (classic data frame, 3- or 8-digit id, optional
 * direction) is read in place and handed to `visit`; every other line (CAN FD, remote, error
 * frames, len8_dlc, anything odd) goes to the library's `CandumpParser`, so the frames and
 * warnings are the same as `readLog`'s. Remote and error frames are not visited (nothing to decode).
 */
export class FastCandump {
  private readonly parser = new CandumpParser();
  private readonly scratch = new Uint8Array(8);
  private readonly views = Array.from({ length: 9 }, (_, n) => this.scratch.subarray(0, n));
  private rest: Uint8Array = new Uint8Array(0);
  private lineNo = 0;
  private first = true;
  /** Frames read on the fast path (the parser counts its own). */
  fast = 0;

  constructor(private readonly visit: FrameVisitor) {}

  push(piece: Uint8Array): void {
    // A plain view: the line reader then sees one array type (file pieces come as Buffers).
    const b = piece.constructor === Uint8Array ? piece : new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength);
    let pos = 0;
    if (this.rest.length) {
      // The line cut at the end of the last piece: joined on its own, the rest is read in place.
      const nl = b.indexOf(10);
      const joined = new Uint8Array(this.rest.length + (nl < 0 ? b.length : nl + 1));
      joined.set(this.rest);
      joined.set(nl < 0 ? b : b.subarray(0, nl + 1), this.rest.length);
      if (nl < 0) {
        this.rest = joined;
        return;
      }
      this.rest = new Uint8Array(0);
      this.push(joined);
      pos = nl + 1;
    }
    if (this.first && b.length >= 3) {
      this.first = false;
      if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) pos = 3;
    }
    const n = b.length;
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    while (pos < n) {
      // The common line is read up to its newline in one go; any other goes to the full parser.
      const next = this.quick(b, view, pos, n);
      if (next >= 0) {
        this.lineNo++;
        pos = next;
        continue;
      }
      const nl = b.indexOf(10, pos);
      if (nl < 0) break;
      this.line(b, pos, nl > pos && b[nl - 1] === 13 ? nl - 1 : nl);
      pos = nl + 1;
    }
    this.rest = b.slice(pos);
  }

  end(): LogReadResult {
    if (this.rest.length) {
      // The last line, without its newline.
      const last = new Uint8Array(this.rest.length + 1);
      last.set(this.rest);
      last[this.rest.length] = 10;
      this.rest = new Uint8Array(0);
      this.push(last);
    }
    this.rest = new Uint8Array(0);
    const r = this.parser.result();
    this.others(r.frames);
    r.frames = [];
    // "No frame could be read" is about the whole file, fast lines included.
    if (this.fast > 0) delete r.error;
    return r;
  }

  /** A line that is not the common one: the full parser reads it. */
  private line(b: Uint8Array, start: number, end: number): void {
    this.lineNo++;
    this.parser.line(b, start, end, this.lineNo);
    this.others(this.parser.drain());
  }

  private others(frames: { ts: number; channel: number; id: number; ext: boolean; rtr: boolean; err: boolean; data: Uint8Array }[]) {
    for (const f of frames) if (!f.rtr && !f.err) this.visit(f.ts, f.channel, f.id, f.ext, f.data, NO_LINE, -1, -1);
  }

  /**
   * The common line starting at `start`, read in place up to and including its newline (LF or
   * CRLF; `end` is the end of the bytes at hand): the index after it, or -1 to leave the line to
   * the full parser (also when the line runs past `end`).
   */
  private quick(b: Uint8Array, view: DataView, start: number, end: number): number {
    let p = start;
    if (b[p] !== 40) return -1;
    p++;
    const t0 = p;
    let sec = 0;
    while (p < end && b[p] >= 48 && b[p] <= 57) sec = sec * 10 + (b[p++] - 48);
    const secDigits = p - t0;
    if (secDigits === 0 || secDigits > 10 || b[p] !== 46) return -1;
    p++;
    const f0 = p;
    let micro = 0;
    while (p < end && b[p] >= 48 && b[p] <= 57) micro = micro * 10 + (b[p++] - 48);
    if (p - f0 !== 6 || b[p] !== 41 || b[p + 1] !== 32) return -1;
    const t1 = p;
    p += 2;
    // Interface name: channel = its trailing digits.
    const n0 = p;
    while (p < end && b[p] !== 32 && b[p] !== 10) p++;
    if (p === n0 || p >= end || b[p] !== 32) return -1;
    let d = p;
    while (d > n0 && b[d - 1] >= 48 && b[d - 1] <= 57) d--;
    if (p - d > 3) return -1;
    let channel = 0;
    for (let i = d; i < p; i++) channel = channel * 10 + (b[i] - 48);
    if (channel > 255) return -1;
    p++;
    const i0 = p;
    let id = 0;
    while (p < end && HEX[b[p]] >= 0) id = id * 16 + HEX[b[p++]];
    const idDigits = p - i0;
    if (b[p] !== 35 || (idDigits !== 3 && idDigits !== 8)) return -1;
    const ext = idDigits === 8;
    if (ext ? id > 0x1fffffff : id > 0x7ff) return -1; // error flag or out of range: the parser decides
    p++;
    let len = 0;
    const data = this.scratch;
    while (p < end) {
      const hi = HEX[b[p]];
      if (hi < 0) break; // '#' (CAN FD), 'R' (remote), '.', '_' … are checked below or left to the parser
      if (p + 1 >= end || len === 8) return -1;
      const lo = HEX[b[p + 1]];
      if (lo < 0) return -1;
      data[len++] = (hi << 4) | lo;
      p += 2;
    }
    // Then the line ends, or only " R" or " T" follows, as the last thing on the line.
    if (b[p] === 32 && (b[p + 1] === 82 || b[p + 1] === 84)) p += 2;
    if (b[p] === 13) p++;
    if (p >= end || b[p] !== 10) return -1;
    this.fast++;
    // candump's own timestamps print as they are (no sign, no leading zeros, six decimals).
    const canonical = secDigits === 1 || b[t0] !== 48;
    this.visit(sec * 1e6 + micro, channel, id, ext, this.views[len], view, canonical ? t0 : -1, t1);
    return p + 1;
  }
}

/** Whether a log starts like candump -L (its first line that is not blank), without loading the other readers. */
export function looksLikeCandump(head: Uint8Array): boolean {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 4096)).replace(/^\uFEFF|^ï»¿/, '');
  const line = text.split('\n').find((l) => l.trim() !== '');
  return line !== undefined && /^\(\d+(\.\d*)?\)\s+\S+\s+[0-9A-Fa-f]+#/.test(line.trim());
}
