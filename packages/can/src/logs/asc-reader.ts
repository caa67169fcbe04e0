/**
 * Vector ASC reader. Lines we read:
 *
 *   date Wed Jul 8 06:17:32.249 pm 2015            start of the recording (wall clock)
 *   base hex  timestamps absolute                  `dec` ids/data and `relative` (delta) times too
 *      0.001234 1  123             Rx   d 8 01 02 03 04 05 06 07 08   classic; `123x` = extended
 *      0.002000 2  1FFx            Tx   r 4                             remote frame, DLC 4
 *      0.003000 1  ErrorFrame [Flags = 0x.. CodeExt = 0x3000 …]      CodeExt bits 12-13: 1, 3 = sent
 *      0.004000 CANFD   1 Rx        123  [name]  1 0 d 32 <32 bytes> <duration> <length> <flags> …
 *      0.005000 CANFD   1 Tx        ErrorFrame …                         an error on a CAN FD channel
 *
 * Frame time = start + line time. The start is the date of the first `Begin Triggerblock` line,
 * else the `date` header, else 0 (times stay relative). CANoe writes the same date in both;
 * python-can writes the file creation time into `date` and the time its line times count from
 * into `Begin Triggerblock`, so the trigger block date is the one that is right for both.
 * ASC channel n is our channel n-1.
 * Other events (statistics, chip status, markers, LIN, J1939 …) are skipped without warning;
 * lines that claim to be CAN frames but cannot be read are skipped with a warning.
 *
 * A `CANFD` line is a CAN FD frame unless its flags field says otherwise: EDL (0x1000) unset
 * marks a classic frame logged on a CAN FD channel (0x10 = a remote one). More than 8 data
 * bytes are CAN FD whatever the flags say (python-can's own test files carry such lines), and a
 * line without the flags field is taken as CAN FD, as python-can takes every `CANFD` line.
 */
import type { CanFrame } from '../frame.ts';
import { FrameSink } from './frame-sink.ts';
import { PayloadArena } from './payload-arena.ts';
import { Cursor, forEachLine, HEX_VALUE } from './text-cursor.ts';
import type { LineParser, LogReadOptions, LogReadResult } from './types.ts';
import { parseAscDate } from './wall-clock.ts';

/** CANFD line flags (Vector ASC spec): remote frame, EDL (FD format). */
const FD_FLAG_RTR = 0x10;
const FD_FLAG_EDL = 0x1000;

interface AscState {
  base: number;
  relative: boolean;
  start: number | undefined;
  triggerStart: number | undefined;
  last: number;
  offset: number;
}

function isDir(c: Cursor, start: number): 0 | 1 | 2 | -1 {
  if (c.tokenIs(start, 'rx')) return 0;
  if (c.tokenIs(start, 'tx')) return 1;
  if (c.tokenIs(start, 'txrq')) return 2;
  return -1;
}

/** `123` or `123x` in the file's base; returns NaN when not an id. Sets `ext` through the out param. */
function parseId(c: Cursor, base: number, out: { ext: boolean }): number {
  const b = c.b;
  const start = c.token();
  let end = c.p;
  out.ext = false;
  if (end > start && (b[end - 1] | 0x20) === 120) {
    out.ext = true;
    end--;
  }
  if (end === start || end - start > 10) return Number.NaN;
  let v = 0;
  for (let i = start; i < end; i++) {
    const d = HEX_VALUE[b[i]];
    if (d < 0 || d >= base) return Number.NaN;
    v = v * base + d;
  }
  return v > (out.ext ? 0x1fffffff : 0x7ff) ? Number.NaN : v;
}

function readBytes(c: Cursor, base: number, count: number, arena: PayloadArena): Uint8Array | string {
  const data = arena.take(count);
  for (let i = 0; i < count; i++) {
    c.skipSpaces();
    const v = c.uintToken(base);
    if (Number.isNaN(v) || v > 255) return `bad data byte ${i + 1}`;
    data[i] = v;
  }
  return data;
}

function frame(ts: number, channel: number, id: number, ext: boolean, tx: boolean, data: Uint8Array): CanFrame {
  return { ts, channel, id, ext, fd: false, brs: false, esi: false, rtr: false, err: false, tx, data };
}

const idOut = { ext: false };

/** Classic line after `<time> <channel>`; returns undefined for events that are not frames. */
function parseClassic(c: Cursor, st: AscState, ts: number, channel: number, arena: PayloadArena): CanFrame | string | undefined {
  const save = c.p;
  const first = c.token();
  if (c.tokenIs(first, 'errorframe')) {
    // CANoe's extended form carries the direction in CodeExt (BLF CAN_ERROR_EXT flagsExt).
    const codeExt = /codeext\s*=\s*0x([0-9a-f]+)/i.exec(c.text(c.p, c.e));
    const tx = codeExt ? ((Number.parseInt(codeExt[1], 16) >> 12) & 1) === 1 : false;
    const f = frame(ts, channel, 0, false, tx, arena.take(0));
    f.err = true;
    return f;
  }
  c.p = save;
  const id = parseId(c, st.base, idOut);
  const ext = idOut.ext;
  c.skipSpaces();
  const dirStart = c.token();
  const dir = isDir(c, dirStart);
  if (dir < 0) return undefined; // Statistic:, Status:, J1939TP …
  if (Number.isNaN(id)) return 'bad CAN id';
  if (dir === 2) return undefined; // TxRq is the request to send, the frame itself follows as Tx
  c.skipSpaces();
  const kindStart = c.token();
  const isRemote = c.tokenIs(kindStart, 'r');
  if (!isRemote && !c.tokenIs(kindStart, 'd')) return 'expected d or r';
  c.skipSpaces();
  const save2 = c.p;
  let dlc = c.uintToken(st.base);
  if (isRemote) {
    if (Number.isNaN(dlc)) {
      c.p = save2;
      dlc = 0; // old CANoe versions write no DLC after `r`
    }
    if (dlc > 15) return 'bad DLC';
    const f = frame(ts, channel, id, ext, dir === 1, arena.take(0));
    f.rtr = true;
    f.dlc = dlc;
    return f;
  }
  if (Number.isNaN(dlc) || dlc > 15) return 'bad DLC';
  const data = readBytes(c, st.base, Math.min(dlc, 8), arena);
  if (typeof data === 'string') return data;
  const f = frame(ts, channel, id, ext, dir === 1, data);
  if (dlc > 8) f.dlc = dlc;
  return f;
}

function parseFd(c: Cursor, st: AscState, ts: number, arena: PayloadArena): CanFrame | string {
  c.skipSpaces();
  const ch = c.uintToken(10);
  if (Number.isNaN(ch) || ch < 1) return 'bad channel';
  c.skipSpaces();
  const dir = isDir(c, c.token());
  if (dir < 0) return 'expected Rx or Tx';
  c.skipSpaces();
  const save = c.p;
  if (c.tokenIs(c.token(), 'errorframe')) {
    const f = frame(ts, ch - 1, 0, false, dir === 1, arena.take(0));
    f.err = true;
    f.fd = true;
    return f;
  }
  c.p = save;
  const id = parseId(c, st.base, idOut);
  const ext = idOut.ext;
  if (Number.isNaN(id)) return 'bad CAN id';
  c.skipSpaces();
  // An optional symbolic message name sits between id and BRS; names never start with a digit.
  const nameStart = c.p;
  if (!(c.b[nameStart] >= 48 && c.b[nameStart] <= 57)) {
    c.token();
    c.skipSpaces();
  }
  const brs = c.uintToken(10);
  c.skipSpaces();
  const esi = c.uintToken(10);
  c.skipSpaces();
  const dlc = c.uintToken(16);
  c.skipSpaces();
  const len = c.uintToken(10);
  if (!(brs <= 1 && esi <= 1)) return 'bad BRS/ESI';
  if (!(dlc <= 15) || !(len <= 64)) return 'bad DLC or data length';
  const data = readBytes(c, st.base, len, arena);
  if (typeof data === 'string') return data;
  // Trailing fields: message duration, message length, flags (hex), CRC, bit timings.
  let flags = -1;
  c.skipSpaces();
  c.token();
  c.skipSpaces();
  c.token();
  c.skipSpaces();
  if (!c.atEnd()) {
    const v = c.uintToken(16);
    if (!Number.isNaN(v)) flags = v;
  }
  const f = frame(ts, ch - 1, id, ext, dir === 1, data);
  if (len > 8 || flags < 0 || flags & FD_FLAG_EDL) {
    f.fd = true;
    f.brs = brs === 1;
    f.esi = esi === 1;
  } else if (flags & FD_FLAG_RTR) {
    // A classic remote frame logged on a CAN FD channel.
    f.rtr = true;
    f.data = arena.take(0);
    f.dlc = Math.min(dlc, 8);
  } else if (dlc > 8 && len === 8) {
    f.dlc = dlc;
  }
  return f;
}

function headerLine(c: Cursor, st: AscState, start: number, end: number, opts: LogReadOptions): boolean {
  const first = c.token();
  if (c.tokenIs(first, 'date')) {
    const t = parseAscDate(c.text(c.p, end), opts.utcOffsetMinutes);
    if (!Number.isNaN(t)) st.start = t;
    return true;
  }
  if (c.tokenIs(first, 'base')) {
    c.skipSpaces();
    const b = c.token();
    if (c.tokenIs(b, 'dec')) st.base = 10;
    else if (c.tokenIs(b, 'hex')) st.base = 16;
    const rest = c.text(c.p, end).toLowerCase();
    st.relative = /timestamps\s+relative/.test(rest);
    return true;
  }
  if (c.tokenIs(first, 'begin')) {
    c.skipSpaces();
    const t = parseAscDate(c.text(c.token(), end).replace(/^triggerblock\s*/i, ''), opts.utcOffsetMinutes);
    if (!Number.isNaN(t) && st.triggerStart === undefined) st.triggerStart = t;
    return true;
  }
  const line = c.text(start, end).toLowerCase();
  return line.startsWith('//') || line.startsWith('end triggerblock') || /^(no\s+)?internal\s+events\s+logged/.test(line);
}

/** Line-by-line ASC parser; `readAsc` feeds it a whole file, `createLogReader` chunks. */
export class AscParser implements LineParser {
  private haveOffset = false;
  private readonly sink: FrameSink;
  private readonly arena = new PayloadArena();
  private readonly c = new Cursor(new Uint8Array(0));
  private readonly st: AscState = { base: 16, relative: false, start: undefined, triggerStart: undefined, last: 0, offset: 0 };

  constructor(private readonly opts: LogReadOptions = {}) {
    this.sink = new FrameSink(opts);
  }

  line(b: Uint8Array, start: number, end: number, line: number): void {
    const { c, st } = this;
    c.b = b;
    c.setLine(start, end);
    c.skipSpaces();
    if (c.atEnd()) return;
    const b0 = b[c.p];
    if (b0 < 48 || b0 > 57) {
      if (!headerLine(c, st, c.p, end, this.opts)) this.sink.warnings.line(line, 'unrecognised line');
      return;
    }
    if (!this.haveOffset) {
      // Fix the time base at the first event (see the file comment).
      st.offset = st.triggerStart ?? st.start ?? 0;
      this.haveOffset = true;
    }
    let t = c.seconds();
    if (Number.isNaN(t) || c.skipSpaces() === 0) {
      this.sink.warnings.line(line, 'bad timestamp');
      return;
    }
    if (st.relative) {
      t += st.last;
      st.last = t;
    }
    const ts = st.offset + t;
    let r: CanFrame | string | undefined;
    const tokenStart = c.p;
    if (b[tokenStart] >= 48 && b[tokenStart] <= 57) {
      const ch = c.uintToken(10);
      if (Number.isNaN(ch)) return; // e.g. "1.5 1x" is no CAN event we know
      c.skipSpaces();
      r = parseClassic(c, st, ts, ch - 1, this.arena);
      if (r !== undefined && typeof r !== 'string' && ch < 1) r = 'bad channel';
    } else {
      c.token();
      if (!c.tokenIs(tokenStart, 'canfd')) return;
      r = parseFd(c, st, ts, this.arena);
    }
    if (r === undefined) return;
    if (typeof r === 'string') this.sink.warnings.line(line, r);
    else this.sink.atLine(r, line);
  }

  drain(): CanFrame[] {
    return this.sink.drain();
  }

  result(): LogReadResult {
    return this.sink.result('asc', 'Vector ASC', this.st.triggerStart ?? this.st.start);
  }
}

export function readAsc(bytes: Uint8Array, opts: LogReadOptions = {}): LogReadResult {
  const parser = new AscParser(opts);
  forEachLine(bytes, (start, end, line) => parser.line(bytes, start, end, line));
  return parser.result();
}
