/**
 * PEAK TRC reader (PCAN-View, PCAN-Explorer, PCAN-Trace), file versions 1.0 to 2.1:
 *
 *   1.0   `     1)      1841  0001  8  00 11 22 33 44 55 66 77`      no header; RTR / ERROR in the data
 *   1.1   `     1)      1059.9  Rx         0300  7  00 00 …`         type Rx / Tx / Error / Warng
 *   1.2   `     1)      1059.900 1  Rx        0300  7  00 00 …`      + bus, times to the µs
 *   1.3   `     1)      1059.900 1  Rx        0300 -  7    00 00 …`  + a reserved column
 *   2.0   `      5      1334.416 FD     0500 Tx 12 01 02 …`          columns per `;$COLUMNS` (l = length)
 *   2.1   `      5      1334.416 FB 1      0500 Tx -  9    01 02 …`  + bus and reserved (L = DLC)
 *
 * 2.x types: DT data, FD / FB (BRS) / FE (ESI) / BI (BRS and ESI) CAN FD, RR remote, ER error;
 * status (ST, Warng), error counter (EC) and event (EV) lines are no frames and are skipped
 * without a warning. Ids of more than 4 hex digits are extended. The bus is 1-based (our
 * channel + 1); versions without it give channel 0. Frame time = start + offset (ms), the start
 * from `;$STARTTIME` (days since 1899-12-30, wall clock → `utcOffsetMinutes`) or, in 1.0 files,
 * the `Start time:` comment; without either the times stay relative to 0.
 */
import { type CanFrame, dlcToLength } from '../frame.ts';
import { FrameSink } from './frame-sink.ts';
import { PayloadArena } from './payload-arena.ts';
import { forEachLine, HEX_VALUE } from './text-cursor.ts';
import type { LineParser, LogReadOptions, LogReadResult } from './types.ts';
import { wallClockToMicros } from './wall-clock.ts';

/** 1899-12-30, day 0 of `$STARTTIME`, in µs since the Unix epoch. */
const TRC_EPOCH_US = -2209161600n * 1_000_000n;
const DAY_US = 86_400_000_000n;
const MAX_TOKENS = 96;

const DEFAULT_COLUMNS: Record<number, string> = { 20: 'NOTIdlD', 21: 'NOTBIdRLD' };

/** `$STARTTIME` days (a decimal) → µs since the Unix epoch, exactly: BigInt over the digits, not a float. */
export function trcDaysToMicros(text: string, utcOffsetMinutes = 0): number {
  const m = /^\s*(\d+)(?:[.,](\d*))?/.exec(text);
  if (!m) return Number.NaN;
  const frac = (m[2] ?? '').slice(0, 18);
  const scale = 10n ** BigInt(frac.length);
  const fracUs = frac ? (BigInt(frac) * DAY_US * 2n + scale) / (2n * scale) : 0n;
  const us = BigInt(m[1]) * DAY_US + fracUs + TRC_EPOCH_US;
  return Number(us) - utcOffsetMinutes * 60_000_000;
}

/** `24.03.2003 12:52:32.484[.3]` or `2003-03-24 12:52:32.484` → µs, or NaN. */
function parseStartComment(text: string, utcOffsetMinutes = 0): number {
  const m =
    /(\d{1,2})\.(\d{1,2})\.(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?:\.(\d))?/.exec(text) ??
    /(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?/.exec(text);
  if (!m) return Number.NaN;
  const iso = m[1].length === 4;
  const [year, month, day] = iso ? [+m[1], +m[2], +m[3]] : [+m[3], +m[2], +m[1]];
  const micros = iso ? Number((m[7] ?? '').padEnd(6, '0')) : Number((m[7] ?? '').padEnd(3, '0')) * 1000 + Number(m[8] ?? 0) * 100;
  if (month < 1 || month > 12 || day < 1 || day > 31) return Number.NaN;
  return wallClockToMicros({ year, month, day, hour: +m[4], minute: +m[5], second: +m[6], micros }, utcOffsetMinutes);
}

/** Line-by-line TRC parser; `readTrc` feeds it a whole file, `createLogReader` chunks. */
export class TrcParser implements LineParser {
  private readonly sink: FrameSink;
  private readonly arena = new PayloadArena();
  /** 10 × the file version: 10 (1.0, also without a version line) … 21. */
  private version = 10;
  private columns = '';
  private start: number | undefined;
  private commentStart: number | undefined;
  private inHeader = true;
  private b: Uint8Array = new Uint8Array(0);
  private readonly ts = new Int32Array(MAX_TOKENS);
  private readonly te = new Int32Array(MAX_TOKENS);
  private n = 0;

  constructor(private readonly opts: LogReadOptions = {}) {
    this.sink = new FrameSink(opts);
  }

  line(b: Uint8Array, start: number, end: number, line: number): void {
    let p = start;
    while (p < end && (b[p] === 32 || b[p] === 9)) p++;
    if (p >= end) return;
    if (b[p] === 59) {
      if (this.inHeader) this.header(b, p, end);
      return;
    }
    if (this.inHeader) {
      this.inHeader = false;
      if (this.version >= 20 && !this.columns) this.columns = DEFAULT_COLUMNS[this.version] ?? DEFAULT_COLUMNS[21];
      if (this.start === undefined && this.commentStart !== undefined) this.start = this.commentStart;
    }
    this.b = b;
    this.tokenize(p, end);
    const r = this.version >= 20 ? this.parseV2() : this.parseV1();
    if (r === undefined) return;
    if (typeof r === 'string') this.sink.warnings.line(line, r);
    else this.sink.atLine(r, line);
  }

  private header(b: Uint8Array, p: number, end: number): void {
    let text = '';
    for (let i = p; i < end && i < p + 200; i++) text += String.fromCharCode(b[i]);
    const m = /^;\$(\w+)\s*=\s*([^;]*)/.exec(text);
    if (m) {
      const key = m[1].toUpperCase();
      const value = m[2].trim();
      if (key === 'FILEVERSION') {
        const v = /^(\d)\.(\d)/.exec(value);
        if (v) this.version = Number(v[1]) * 10 + Number(v[2]);
      } else if (key === 'STARTTIME') {
        const t = trcDaysToMicros(value, this.opts.utcOffsetMinutes);
        if (!Number.isNaN(t)) this.start = t;
      } else if (key === 'COLUMNS') {
        this.columns = value
          .split(',')
          .map((c) => c.trim())
          .join('');
      }
      return;
    }
    if (this.commentStart === undefined && /start time:/i.test(text)) {
      const t = parseStartComment(text, this.opts.utcOffsetMinutes);
      if (!Number.isNaN(t)) this.commentStart = t;
    }
  }

  private tokenize(p: number, end: number): void {
    const b = this.b;
    let n = 0;
    while (p < end && n < MAX_TOKENS) {
      while (p < end && (b[p] === 32 || b[p] === 9)) p++;
      if (p >= end) break;
      this.ts[n] = p;
      while (p < end && b[p] !== 32 && b[p] !== 9) p++;
      this.te[n++] = p;
    }
    this.n = n;
  }

  private is(i: number, word: string): boolean {
    const s = this.ts[i];
    if (i >= this.n || this.te[i] - s !== word.length) return false;
    for (let k = 0; k < word.length; k++) if ((this.b[s + k] | 0x20) !== (word.charCodeAt(k) | 0x20)) return false;
    return true;
  }

  private digits(i: number): number {
    return this.te[i] - this.ts[i];
  }

  /** Unsigned number in `base`, NaN when the token is not one (or missing). */
  private num(i: number, base: number): number {
    if (i >= this.n) return Number.NaN;
    let v = 0;
    for (let k = this.ts[i]; k < this.te[i]; k++) {
      const d = HEX_VALUE[this.b[k]];
      if (d < 0 || d >= base) return Number.NaN;
      v = v * base + d;
    }
    return this.te[i] > this.ts[i] ? v : Number.NaN;
  }

  /** Milliseconds with up to 3 decimals (more are rounded) → µs. */
  private micros(i: number): number {
    if (i >= this.n) return Number.NaN;
    const b = this.b;
    let k = this.ts[i];
    const e = this.te[i];
    let ms = 0;
    const s = k;
    while (k < e && b[k] >= 48 && b[k] <= 57) ms = ms * 10 + (b[k++] - 48);
    if (k === s) return Number.NaN;
    let us = 0;
    if (k < e && b[k] === 46) {
      k++;
      let scale = 100;
      while (k < e && b[k] >= 48 && b[k] <= 57) {
        if (scale >= 1) us += (b[k] - 48) * scale;
        else if (scale === 0.1 && b[k] >= 53) us++;
        scale /= 10;
        k++;
      }
    }
    return k === e ? ms * 1000 + us : Number.NaN;
  }

  private frame(offsetUs: number, channel: number, id: number, ext: boolean, tx: boolean): CanFrame {
    return {
      ts: (this.start ?? 0) + offsetUs,
      channel,
      id,
      ext,
      fd: false,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx,
      data: this.arena.take(0),
    };
  }

  /** `count` hex bytes from token `i` on, or why not. */
  private bytes(i: number, count: number): Uint8Array | string {
    if (this.n - i < count) return `${count} data bytes expected, ${Math.max(0, this.n - i)} found`;
    const data = this.arena.take(count);
    for (let k = 0; k < count; k++) {
      const v = this.digits(i + k) === 2 ? this.num(i + k, 16) : Number.NaN;
      if (Number.isNaN(v)) return `bad data byte ${k + 1}`;
      data[k] = v;
    }
    return data;
  }

  private id(i: number): { id: number; ext: boolean } | string {
    const digits = this.digits(i);
    const id = digits <= 8 ? this.num(i, 16) : Number.NaN;
    const ext = digits > 4;
    if (Number.isNaN(id) || id > (ext ? 0x1fffffff : 0x7ff)) return 'bad CAN id';
    return { id, ext };
  }

  /** Versions 1.x: fixed columns. */
  private parseV1(): CanFrame | string | undefined {
    const v = this.version;
    let i = 1;
    const t = this.micros(i++);
    if (Number.isNaN(t)) return 'bad time offset';
    let channel = 0;
    if (v >= 12) {
      const bus = this.num(i++, 10);
      if (!(bus >= 1)) return 'bad bus number';
      channel = bus - 1;
    }
    let tx = false;
    let err = false;
    if (v >= 11) {
      if (this.is(i, 'warng')) return undefined;
      if (this.is(i, 'error')) err = true;
      else if (this.is(i, 'tx')) tx = true;
      else if (!this.is(i, 'rx')) return 'unknown message type';
      i++;
    }
    // v1.0 marks bus warnings with the id FFFFFFFF.
    if (v < 11 && this.is(i, 'ffffffff')) return undefined;
    const addr = this.id(i++);
    if (typeof addr === 'string') return addr;
    if (v >= 13) i++; // reserved
    const dlc = this.num(i++, 10);
    if (!(dlc <= 15)) return 'bad data length code';
    const f = this.frame(t, channel, addr.id, addr.ext, tx);
    if (this.is(i, 'rtr')) {
      f.rtr = true;
      f.dlc = dlc;
      return f;
    }
    if (this.is(i, 'error')) {
      err = true;
      i++;
    }
    if (err) {
      // Error frames: the id is the error type (bit, form, stuff, other), the data its details.
      const data = this.bytes(i, Math.min(dlc, 8));
      if (typeof data === 'string') return data;
      f.data = data;
      f.err = true;
      f.ext = false;
      return f;
    }
    // Versions 1.x know classic CAN only: DLC 9-15 means 8 bytes.
    const data = this.bytes(i, Math.min(dlc, 8));
    if (typeof data === 'string') return data;
    f.data = data;
    if (dlc > 8) f.dlc = dlc;
    return f;
  }

  /** Versions 2.x: columns as `$COLUMNS` lists them. */
  private parseV2(): CanFrame | string | undefined {
    const cols = this.columns;
    let i = 0;
    let t = Number.NaN;
    let type = '';
    let channel = 0;
    let addr: { id: number; ext: boolean } | string = { id: 0, ext: false };
    let tx = false;
    let len = -1;
    let dlc = -1;
    for (let c = 0; c < cols.length; c++) {
      const col = cols[c];
      if (col === 'D') break;
      if (col === 'N') i++;
      else if (col === 'O') {
        t = this.micros(i++);
        if (Number.isNaN(t)) return 'bad time offset';
      } else if (col === 'T') {
        if (i >= this.n) return 'no message type';
        for (let k = this.ts[i]; k < this.te[i]; k++) type += String.fromCharCode(this.b[k] & 0xdf);
        i++;
        if (type === 'ST' || type === 'EC' || type === 'EV') return undefined;
        if (type === 'ER') return this.errorV2(i, t);
      } else if (col === 'B') {
        const bus = this.num(i++, 10);
        if (!(bus >= 1)) return 'bad bus number';
        channel = bus - 1;
      } else if (col === 'I') addr = this.id(i++);
      else if (col === 'd') {
        if (this.is(i, 'tx')) tx = true;
        else if (!this.is(i, 'rx')) return 'expected Rx or Tx';
        i++;
      } else if (col === 'R') i++;
      else if (col === 'l') len = this.num(i++, 10);
      else if (col === 'L') dlc = this.num(i++, 10);
      else i++;
    }
    if (Number.isNaN(t)) return 'bad time offset';
    if (typeof addr === 'string') return addr;
    const f = this.frame(t, channel, addr.id, addr.ext, tx);
    if (dlc >= 0 && !(dlc <= 15)) return 'bad data length code';
    if (type === 'RR') {
      f.rtr = true;
      f.dlc = Math.min(dlc >= 0 ? dlc : len, 8);
      if (!(f.dlc >= 0)) return 'bad data length';
      return f;
    }
    const fd = type === 'FD' || type === 'FB' || type === 'FE' || type === 'BI';
    if (!fd && type !== 'DT') return `unknown message type ${type}`;
    let count = len >= 0 ? len : dlc >= 0 ? dlcToLength(dlc) : -1;
    // A classic frame with DLC 9-15 carries 8 bytes; more bytes than that are CAN FD.
    if (!fd && dlc > 8 && this.n - i === 8) count = 8;
    if (!(count >= 0 && count <= 64)) return 'bad data length';
    const data = this.bytes(i, count);
    if (typeof data === 'string') return data;
    f.data = data;
    if (fd) {
      f.fd = true;
      f.brs = type === 'FB' || type === 'BI';
      f.esi = type === 'FE' || type === 'BI';
    } else if (dlc > 8 && count === 8) f.dlc = dlc;
    return f;
  }

  /**
   * An `ER` line: no id (blank in 2.0, `-` in 2.1), the direction, in 2.1 a DLC, then the error
   * bytes (error type, direction, position, receive and transmit counters).
   */
  private errorV2(i: number, t: number): CanFrame | string {
    if (Number.isNaN(t)) return 'bad time offset';
    let channel = 0;
    if (this.columns.includes('B') && this.columns.indexOf('B') > this.columns.indexOf('T')) {
      const bus = this.num(i++, 10);
      if (!(bus >= 1)) return 'bad bus number';
      channel = bus - 1;
    }
    while (i < this.n && !this.is(i, 'rx') && !this.is(i, 'tx')) i++;
    if (i >= this.n) return 'expected Rx or Tx';
    const tx = this.is(i++, 'tx');
    if (this.is(i, '-')) i++;
    let count = this.n - i;
    if (this.columns.includes('L')) {
      const dlc = this.num(i++, 10);
      if (!(dlc <= 15)) return 'bad data length code';
      count = dlcToLength(dlc);
    }
    const data = this.bytes(i, count);
    if (typeof data === 'string') return data;
    const f = this.frame(t, channel, 0, false, tx);
    f.err = true;
    f.data = data;
    return f;
  }

  drain(): CanFrame[] {
    return this.sink.drain();
  }

  result(): LogReadResult {
    return this.sink.result('trc', 'PEAK TRC', this.start ?? this.commentStart);
  }
}

export function readTrc(bytes: Uint8Array, opts: LogReadOptions = {}): LogReadResult {
  const parser = new TrcParser(opts);
  forEachLine(bytes, (start, end, line) => parser.line(bytes, start, end, line));
  return parser.result();
}
