/**
 * Vector ASC writer: `base hex  timestamps absolute`, classic frames as `d`/`r` lines, CAN FD
 * frames as `CANFD` lines with the EDL/BRS/ESI flags field, error frames as `ErrorFrame`
 * (ASC keeps neither id nor data of an error frame): a received one as CANoe's plain
 * `<ch>  ErrorFrame`, a sent one with CANoe's extended fields whose CodeExt says TX (0x3000), and
 * one on a CAN FD channel as `CANFD <ch> <Rx|Tx> ErrorFrame`. Layout follows CANoe's column widths.
 */
import type { CanFrame } from '../frame.ts';
import { lengthToDlc } from '../frame.ts';
import { ByteWriter } from './byte-writer.ts';
import { startOfRecording } from './start-time.ts';
import type { LogWriteOptions } from './types.ts';
import { formatAscDate } from './wall-clock.ts';

/** Seconds with 6 decimals, right-aligned in 11 columns like CANoe (`   0.001234`). */
function writeTime(w: ByteWriter, us: number): void {
  const sec = Math.floor(us / 1e6);
  let digits = 1;
  for (let t = sec; t >= 10; t = Math.floor(t / 10)) digits++;
  if (digits < 4) w.spaces(4 - digits);
  w.uint(sec);
  w.byte(46);
  w.uint(us - sec * 1e6, 6);
}

function writeId(w: ByteWriter, f: CanFrame, width: number, leftAlign: boolean): void {
  let digits = 1;
  const id = f.id >>> 0;
  while (digits < 8 && id >>> (digits * 4) !== 0) digits++;
  const len = digits + (f.ext ? 1 : 0);
  if (!leftAlign && len < width) w.spaces(width - len);
  w.hex(id, 1);
  if (f.ext) w.byte(120);
  if (leftAlign && len < width) w.spaces(width - len);
}

function ascHeader(start: number, opts: LogWriteOptions): string {
  const date = formatAscDate(start, opts.utcOffsetMinutes);
  return `date ${date}\nbase hex  timestamps absolute\ninternal events logged\n// version 9.0.0\nBegin Triggerblock ${date}\n   0.000000 Start of measurement\n`;
}

const FOOTER = 'End TriggerBlock\n';

export function writeAsc(frames: readonly CanFrame[], opts: LogWriteOptions = {}): Uint8Array {
  const start = startOfRecording(frames, opts.startTime);
  const w = new ByteWriter(estimateSize(frames));
  w.ascii(ascHeader(start, opts));
  writeLines(w, frames, start);
  w.ascii(FOOTER);
  return w.result();
}

/**
 * Incremental ASC writer: the header goes out with the first piece, its start time fixed by
 * `opts.startTime` or that piece's earliest frame (later frames before it are written at 0).
 */
export class AscWriter {
  private start = -1;

  constructor(private readonly opts: LogWriteOptions = {}) {}

  write(frames: readonly CanFrame[]): Uint8Array {
    const w = new ByteWriter(estimateSize(frames));
    if (this.start < 0) {
      this.start = startOfRecording(frames, this.opts.startTime);
      w.ascii(ascHeader(this.start, this.opts));
    }
    writeLines(w, frames, this.start);
    return w.result();
  }

  end(): Uint8Array {
    const head = this.start < 0 ? this.write([]) : new Uint8Array(0);
    const out = new Uint8Array(head.length + FOOTER.length);
    out.set(head);
    for (let i = 0; i < FOOTER.length; i++) out[head.length + i] = FOOTER.charCodeAt(i);
    return out;
  }
}

/** Buffer size that needs no regrowth: a classic line is ~50 bytes, a CANFD line ~150, plus 3 per data byte. */
function estimateSize(frames: readonly CanFrame[]): number {
  let estimate = 1 << 10;
  for (let k = 0; k < frames.length; k++) estimate += (frames[k].fd ? 160 : 56) + frames[k].data.length * 3;
  return estimate;
}

function writeLines(w: ByteWriter, frames: readonly CanFrame[], start: number): void {
  for (let k = 0; k < frames.length; k++) {
    const f = frames[k];
    w.ensure(600);
    writeTime(w, Math.max(0, Math.round(f.ts) - start));
    w.byte(32);
    const data = f.data;
    if (f.err && !f.fd) {
      w.uint(f.channel + 1);
      w.ascii('  ErrorFrame');
      if (f.tx) w.ascii(' Flags = 0x0 CodeExt = 0x3000 Code = 0x0 ID = 0 DLC = 0 Position = 0 Length = 0');
    } else if (f.fd) {
      // CANFD <ch> <dir> <id> <name> <brs> <esi> <dlc> <len> <data> <duration> <length> <flags> <crc> <4 bit timings>
      w.ascii('CANFD ');
      const ch = f.channel + 1;
      w.spaces(ch < 10 ? 2 : ch < 100 ? 1 : 0);
      w.uint(ch);
      w.ascii(f.tx ? ' Tx   ' : ' Rx   ');
      if (f.err) {
        w.ascii('ErrorFrame');
        w.byte(10);
        continue;
      }
      writeId(w, f, 8, false);
      w.spaces(34);
      w.byte(f.brs ? 49 : 48);
      w.byte(32);
      w.byte(f.esi ? 49 : 48);
      w.byte(32);
      w.hexDigit(lengthToDlc(data.length));
      w.byte(32);
      if (data.length < 10) w.byte(32);
      w.uint(data.length);
      for (let i = 0; i < data.length; i++) {
        w.byte(32);
        w.hex2(data[i]);
      }
      const flags = 0x1000 | (f.brs ? 0x2000 : 0) | (f.esi ? 0x4000 : 0);
      w.ascii('        0    0     ');
      w.hex(flags, 4);
      w.ascii('        0        0        0        0        0');
    } else {
      w.uint(f.channel + 1);
      w.ascii('  ');
      writeId(w, f, 15, true);
      w.ascii(f.tx ? ' Tx   ' : ' Rx   ');
      if (f.rtr) {
        w.ascii('r ');
        w.hexDigit(f.dlc ?? 0);
      } else {
        w.ascii('d ');
        w.hexDigit(f.dlc !== undefined && f.dlc > 8 && data.length === 8 ? f.dlc : data.length);
        for (let i = 0; i < data.length; i++) {
          w.byte(32);
          w.hex2(data[i]);
        }
      }
    }
    w.byte(10);
  }
}
