/**
 * What every reader does with a decoded frame: check it can be stored, keep it or report the
 * line/offset it came from as skipped, and build the result with one rule for "nothing could be
 * read". One class for all formats, so no reader can hand a caller a frame that storage, the
 * device protocol or an export would refuse (a 64-byte frame marked classic, a channel past 255,
 * a CAN FD remote frame …).
 */
import { type CanFrame, FD_LENGTHS } from '../frame.ts';
import type { LogFormat, LogReadOptions, LogReadResult, LogWarning } from './types.ts';

const FD_OK = new Uint8Array(65);
for (const l of FD_LENGTHS) FD_OK[l] = 1;

/** Why `f` cannot be stored as it is, or null when it can. Fixes what has one reading (see below). */
export function checkFrame(f: CanFrame): string | null {
  if (!Number.isFinite(f.ts) || f.ts < 0) return 'bad timestamp';
  if (!Number.isInteger(f.channel) || f.channel < 0 || f.channel > 255) return `channel ${f.channel} out of range (0-255)`;
  // An error frame's id is no arbitration id (error class bits, the id of a damaged frame): any 29 bits.
  if (f.err && !f.ext && f.id > 0x7ff) f.ext = true;
  if (!Number.isInteger(f.id) || f.id < 0 || f.id > (f.ext ? 0x1fffffff : 0x7ff)) return 'CAN id out of range';
  const len = f.data.length;
  // More than 8 data bytes can only be CAN FD, whatever a format's flags claim.
  if (len > 8 && !f.fd && !f.rtr) f.fd = true;
  if (f.fd) {
    if (f.rtr) return 'CAN FD has no remote frames';
    if (!FD_OK[len]) return `CAN FD data length ${len} is none of 0-8, 12, 16, 20, 24, 32, 48, 64`;
    if (f.dlc !== undefined) delete f.dlc;
  } else {
    if (f.brs || f.esi) {
      f.brs = false;
      f.esi = false;
    }
    if (f.rtr) {
      if (len !== 0) return 'remote frame with data';
      if (f.dlc !== undefined && !(f.dlc >= 0 && f.dlc <= 15)) return 'bad DLC';
      // A classic remote frame asks for at most 8 bytes, whatever DLC 9-15 it carries.
      if (f.dlc !== undefined && f.dlc > 8) f.dlc = 8;
    } else if (f.dlc !== undefined && !(f.dlc > 8 && f.dlc <= 15 && len === 8)) {
      return 'DLC does not match the data';
    }
  }
  return null;
}

/** Collects warnings up to a cap so a file of garbage cannot build a million-entry list. */
export class WarningSink {
  readonly list: LogWarning[] = [];
  count = 0;
  constructor(private readonly max = 100) {}

  line(line: number, message: string): void {
    this.count++;
    if (this.list.length < this.max) this.list.push({ line, message });
  }

  offset(offset: number, message: string): void {
    this.count++;
    if (this.list.length < this.max) this.list.push({ offset, message });
  }
}

/** Frames and skips of one reader, and its result. */
export class FrameSink {
  private frames: CanFrame[] = [];
  /** Frames kept so far (drained or not). */
  count = 0;
  readonly warnings: WarningSink;

  constructor(opts: LogReadOptions = {}) {
    this.warnings = new WarningSink(opts.maxWarnings);
  }

  /** Keeps `f`, or reports it as skipped at line `line` (text formats). */
  atLine(f: CanFrame, line: number): void {
    const bad = checkFrame(f);
    if (bad) this.warnings.line(line, bad);
    else {
      this.frames.push(f);
      this.count++;
    }
  }

  /** Keeps `f`, or reports it as skipped at byte `offset` (binary formats). */
  atOffset(f: CanFrame, offset: number): void {
    const bad = checkFrame(f);
    if (bad) this.warnings.offset(offset, bad);
    else {
      this.frames.push(f);
      this.count++;
    }
  }

  drain(): CanFrame[] {
    const out = this.frames;
    this.frames = [];
    return out;
  }

  /**
   * The result: frames not drained yet, the listed skips and their total. A file from which no
   * frame could be read but something was skipped is not a log of this format: `error` then
   * names the first place that failed (`errorAt`), for the user to look at.
   */
  result(format: LogFormat, name: string, startTime?: number): LogReadResult {
    const w = this.warnings;
    const result: LogReadResult = { format, frames: this.drain(), warnings: w.list, skipped: w.count, framesRead: this.count };
    if (startTime !== undefined) result.startTime = startTime;
    if (this.count === 0 && w.count > 0) {
      const first = w.list[0];
      const at = first.line !== undefined ? `line ${first.line}` : `byte ${first.offset}`;
      result.error = `Not a ${name} log: no frame could be read (${at}: ${first.message})`;
      result.errorAt = first.line !== undefined ? { line: first.line } : { offset: first.offset };
    }
    return result;
  }
}
