/**
 * Linux can-utils `candump -L` log lines:
 *
 *   (1436509052.249713) can0 123#DEADBEEF          classic, standard id
 *   (1436509052.249713) can1 1F334455#1122 T       extended id (8 digits), sent by us
 *   (1436509052.249713) can0 123#R5                remote frame asking for 5 bytes
 *   (1436509052.249713) can0 123##1DEADBEEF...     CAN FD, flags nibble (1 = BRS, 2 = ESI)
 *   (1436509052.249713) can0 20000080#0000000000000000   error frame (CAN_ERR_FLAG set)
 *   (1436509052.249713) can0 123#1122334455667788_D      classic frame with DLC 13 (len8_dlc)
 *
 * Channel = trailing digits of the interface name (`can0`, `vcan3`, `slcan1`); a name without
 * digits is channel 0. The ` T` / ` R` suffix (python-can and newer tools) sets `tx`.
 */
import type { CanFrame } from '../frame.ts';
import { ByteWriter } from './byte-writer.ts';
import { FrameSink } from './frame-sink.ts';
import { PayloadArena } from './payload-arena.ts';
import { Cursor, forEachLine, HEX_VALUE } from './text-cursor.ts';
import type { LineParser, LogReadOptions, LogReadResult, LogWriteOptions } from './types.ts';

const CAN_ERR_FLAG = 0x20000000;
/** The error class python-can (and most tools) write and look for: a bus error. */
const CAN_ERR_BUSERROR = 0x00000080;

/** Parses one line into a frame, or returns why it cannot. */
function parseLine(c: Cursor, arena: PayloadArena): CanFrame | string {
  const b = c.b;
  if (b[c.p] !== 40) return 'expected "(seconds.micros)" at line start';
  c.p++;
  const ts = c.seconds();
  if (Number.isNaN(ts) || b[c.p] !== 41 || c.p >= c.e) return 'bad timestamp';
  c.p++;
  if (c.skipSpaces() === 0) return 'expected interface name';
  const nameStart = c.token();
  let digitsStart = c.p;
  while (digitsStart > nameStart && b[digitsStart - 1] >= 48 && b[digitsStart - 1] <= 57) digitsStart--;
  let channel = 0;
  for (let i = digitsStart; i < c.p; i++) channel = channel * 10 + (b[i] - 48);
  if (c.skipSpaces() === 0 || c.atEnd()) return 'expected frame';

  let p = c.p;
  const e = c.e;
  let raw = 0;
  const idStart = p;
  while (p < e && HEX_VALUE[b[p]] >= 0) raw = raw * 16 + HEX_VALUE[b[p++]];
  const idDigits = p - idStart;
  if (p >= e || b[p] !== 35 || idDigits === 0 || idDigits > 8) return 'bad CAN id';
  p++;
  // candump writes 3 digits for 11-bit ids and 8 for 29-bit ones; python-can reads it the same way.
  const ext = idDigits > 3;
  let err = false;
  let id = raw;
  if (ext) {
    err = (raw & CAN_ERR_FLAG) !== 0;
    id = raw & 0x1fffffff;
  } else if (raw > 0x7ff) {
    return 'standard id above 0x7FF';
  }

  let fd = false;
  let brs = false;
  let esi = false;
  let rtr = false;
  let dlc = -1;
  let data: Uint8Array;
  if (p < e && b[p] === 35) {
    fd = true;
    const flags = p + 1 < e ? HEX_VALUE[b[p + 1]] : -1;
    if (flags < 0) return 'bad CAN FD flags';
    brs = (flags & 1) !== 0;
    esi = (flags & 2) !== 0;
    p += 2;
  }
  if (!fd && p < e && (b[p] | 0x20) === 114) {
    rtr = true;
    p++;
    dlc = 0;
    if (p < e && HEX_VALUE[b[p]] >= 0) {
      dlc = HEX_VALUE[b[p++]];
      if (dlc > 8) return 'bad remote frame length';
    }
    if (p + 1 < e && b[p] === 95) {
      dlc = HEX_VALUE[b[p + 1]];
      if (dlc < 9) return 'bad len8_dlc suffix';
      p += 2;
    }
    data = arena.take(0);
  } else {
    let nibbles = 0;
    let q = p;
    for (; q < e; q++) {
      const c2 = b[q];
      if (HEX_VALUE[c2] >= 0) nibbles++;
      else if (c2 !== 46) break; // '.' separators are allowed by cansend syntax
    }
    if (nibbles & 1) return 'odd number of data digits';
    const len = nibbles >> 1;
    if (len > (fd ? 64 : 8)) return fd ? 'more than 64 data bytes' : 'more than 8 data bytes in a classic frame';
    data = arena.take(len);
    let i = 0;
    for (; p < q; p++) {
      const v = HEX_VALUE[b[p]];
      if (v < 0) continue;
      data[i >> 1] = (i & 1) === 0 ? v << 4 : data[i >> 1] | v;
      i++;
    }
    if (!fd && len === 8 && p + 1 < e && b[p] === 95) {
      dlc = HEX_VALUE[b[p + 1]];
      if (dlc < 9) return 'bad len8_dlc suffix';
      p += 2;
    }
  }
  c.p = p;
  let tx = false;
  if (!c.atEnd()) {
    if (c.skipSpaces() === 0) return 'unexpected text after the data';
    if (!c.atEnd()) {
      const dir = b[c.p] | 0x20;
      if ((dir !== 116 && dir !== 114) || (c.p + 1 < c.e && !(b[c.p + 1] === 32 || b[c.p + 1] === 9))) {
        return 'unexpected text after the data';
      }
      tx = dir === 116;
      c.p++;
      c.skipSpaces();
      if (!c.atEnd()) return 'unexpected text after the direction';
    }
  }
  const frame: CanFrame = { ts, channel, id, ext: ext && !err, fd, brs, esi, rtr, err, tx, data };
  if (dlc >= 0 && (rtr || dlc > 8)) frame.dlc = dlc;
  return frame;
}

/** Line-by-line candump parser; `readCandump` feeds it a whole file, `createLogReader` chunks. */
export class CandumpParser implements LineParser {
  private readonly sink: FrameSink;
  private readonly arena = new PayloadArena();
  private readonly c = new Cursor(new Uint8Array(0));

  constructor(opts: LogReadOptions = {}) {
    this.sink = new FrameSink(opts);
  }

  line(b: Uint8Array, start: number, end: number, line: number): void {
    const c = this.c;
    c.b = b;
    c.setLine(start, end);
    c.skipSpaces();
    if (c.atEnd()) return;
    const r = parseLine(c, this.arena);
    if (typeof r === 'string') this.sink.warnings.line(line, r);
    else this.sink.atLine(r, line);
  }

  drain(): CanFrame[] {
    return this.sink.drain();
  }

  result(): LogReadResult {
    return this.sink.result('candump', 'candump -L');
  }
}

export function readCandump(bytes: Uint8Array, opts: LogReadOptions = {}): LogReadResult {
  const parser = new CandumpParser(opts);
  forEachLine(bytes, (start, end, line) => parser.line(bytes, start, end, line));
  return parser.result();
}

/** Encodes frames as `candump -L` lines (ASCII, `\n` line ends). */
export function writeCandump(frames: readonly CanFrame[], opts: LogWriteOptions = {}): Uint8Array {
  const prefix = opts.interfacePrefix ?? 'can';
  const direction = opts.direction ?? true;
  // Size the buffer up front (a line is ~45 bytes plus 2 per data byte) so it never regrows.
  let estimate = 1 << 12;
  for (let k = 0; k < frames.length; k++) estimate += 48 + prefix.length + frames[k].data.length * 2;
  const w = new ByteWriter(estimate);
  for (let k = 0; k < frames.length; k++) {
    const f = frames[k];
    w.ensure(prefix.length + 200);
    const us = Math.max(0, Math.round(f.ts));
    const sec = Math.floor(us / 1e6);
    w.byte(40);
    w.uint(sec);
    w.byte(46);
    w.uint(us - sec * 1e6, 6);
    w.byte(41);
    w.byte(32);
    w.ascii(prefix);
    w.uint(f.channel);
    w.byte(32);
    // An error frame's id holds its error class bits; one without (0) is written as a bus error,
    // since python-can takes an error frame without that class for a data frame.
    if (f.err) w.hex((CAN_ERR_FLAG | (f.id & 0x1fffffff || CAN_ERR_BUSERROR)) >>> 0, 8);
    else if (f.ext) w.hex(f.id >>> 0, 8);
    else w.hex(f.id, 3);
    w.byte(35);
    const data = f.data;
    if (f.rtr && !f.fd && !f.err) {
      w.byte(82);
      const dlc = f.dlc ?? 0;
      if (dlc > 8) {
        w.byte(56);
        w.byte(95);
        w.hexDigit(dlc);
      } else if (dlc > 0) {
        w.hexDigit(dlc);
      }
    } else {
      if (f.fd) {
        w.byte(35);
        w.hexDigit((f.brs ? 1 : 0) | (f.esi ? 2 : 0));
      }
      for (let i = 0; i < data.length; i++) w.hex2(data[i]);
      if (!f.fd && f.dlc !== undefined && f.dlc > 8 && data.length === 8) {
        w.byte(95);
        w.hexDigit(f.dlc);
      }
    }
    if (direction) {
      w.byte(32);
      w.byte(f.tx ? 84 : 82);
    }
    w.byte(10);
  }
  return w.result();
}

/** candump has no header or footer: pieces are simply written one after another. */
export class CandumpWriter {
  constructor(private readonly opts: LogWriteOptions = {}) {}

  write(frames: readonly CanFrame[]): Uint8Array {
    return writeCandump(frames, this.opts);
  }

  end(): Uint8Array {
    return new Uint8Array(0);
  }
}
