/**
 * CAN log files in and out: candump `-L`, Vector ASC, Vector BLF and PEAK TRC (one entry each in
 * `formats.ts`), any of them also gzip-compressed.
 *
 * API (bytes in, bytes out, for every format, so callers never care whether a format is text):
 * - `detectLogFormat(bytesOrFileName)` sniffs the content (or the extension of a name);
 * - `readLog(bytes, format?)` never throws: bad lines/objects are skipped and listed with their
 *   line or byte offset, and a file that is not a log at all comes back with `error` set and no
 *   frames; gzip (magic 1f 8b) is undone on the way;
 * - `writeLog(frames, format)` returns the file bytes (text formats are ASCII);
 * - `createLogReader(format)` / `createLogWriter(format)` read and write a file piece by piece
 *   with the same result as `readLog` / `writeLog`; `createAutoLogReader` also finds the format
 *   from the first piece.
 */
import { Gunzip } from 'fflate';
import type { CanFrame } from '../frame.ts';
import { createLogReader, formatSpec, LOG_FORMAT_SPECS, LOG_FORMATS } from './formats.ts';
import type { LogStreamReader } from './log-stream.ts';
import { toBytes } from './text-cursor.ts';
import type { LogFormat, LogReadOptions, LogReadResult, LogWriteOptions } from './types.ts';

export { createLogReader, createLogWriter, LOG_FORMAT_SPECS, LOG_FORMATS, type LogFormatSpec } from './formats.ts';
export type { LogStreamReader, LogStreamWriter } from './log-stream.ts';
export type { LogFormat, LogReadOptions, LogReadResult, LogWarning, LogWriteOptions, TrcVersion } from './types.ts';

/** Bytes a format is recognised from (text formats look at the lines in them). */
export const SNIFF_BYTES = 4096;

/** Largest file `readLog` inflates from gzip by default. */
const MAX_INFLATED = 1 << 30;

/** gzip's magic bytes 1f 8b. */
export function isGzip(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

const formatNames = () => LOG_FORMATS.map((f) => LOG_FORMAT_SPECS[f].name).join(', ');

function detectText(b: Uint8Array): LogFormat | null {
  const head = new TextDecoder('latin1').decode(b.subarray(0, SNIFF_BYTES));
  const text = LOG_FORMATS.filter((f) => LOG_FORMAT_SPECS[f].sniffLine);
  for (const raw of head.split('\n').slice(0, 64)) {
    const line = raw.replace(/^\uFEFF|^ï»¿/, '').trim();
    if (!line) continue;
    let header = false;
    for (const f of text) {
      const r = LOG_FORMAT_SPECS[f].sniffLine!(line);
      if (r === 'yes') return f;
      if (r === 'header') header = true;
    }
    if (!header) return null;
  }
  return null;
}

/**
 * The format of a log file from its bytes, or from its file name when given a string (a `.gz`
 * suffix is looked through: `trip.asc.gz` is ASC). Returns null when unknown; gzip bytes are
 * unknown until inflated.
 */
export function detectLogFormat(input: Uint8Array | string): LogFormat | null {
  if (typeof input === 'string') {
    const name = input.toLowerCase().replace(/\.gz$/, '');
    const dot = name.lastIndexOf('.');
    if (dot < 0) return null;
    const ext = name.slice(dot + 1);
    return LOG_FORMATS.find((f) => LOG_FORMAT_SPECS[f].extensions.includes(ext)) ?? null;
  }
  for (const f of LOG_FORMATS) if (LOG_FORMAT_SPECS[f].magic?.(input)) return f;
  return detectText(input);
}

function unrecognised(): LogReadResult {
  return { format: null, frames: [], warnings: [], skipped: 0, error: `Unrecognised log format (expected ${formatNames()})` };
}

/**
 * Adds a problem of the byte stream itself (a damaged gzip, an upload cut short) to `r`: like
 * any skipped input it is listed, and with no frame read it makes the whole file an error.
 */
export function addStreamProblem(r: LogReadResult, offset: number, message: string, max = 100): LogReadResult {
  r.skipped++;
  if (r.warnings.length < max) r.warnings.push({ offset, message });
  if (!r.error && (r.framesRead ?? r.frames.length) === 0) {
    r.error = `No frame could be read (byte ${offset}: ${message})`;
    r.errorAt = { offset };
  }
  return r;
}

export interface AutoReadOptions extends LogReadOptions {
  /** The format when known; otherwise found from the first `SNIFF_BYTES` bytes, then `name`. */
  format?: LogFormat | null;
  /** File name, for the extension when the content says nothing. */
  name?: string;
}

/**
 * A stream reader for a file of unknown format: it holds the first `SNIFF_BYTES` bytes back to
 * recognise the format, then reads like `createLogReader(format)`. Not for gzip bytes: inflate
 * first (`readLog` does; servers with node:zlib).
 */
export class AutoLogReader implements LogStreamReader {
  private inner: LogStreamReader | null = null;
  private head: Uint8Array[] = [];
  private headLength = 0;
  private failed = false;
  format: LogFormat | null = null;

  constructor(private readonly opts: AutoReadOptions = {}) {
    if (opts.format) this.begin(opts.format);
  }

  private begin(format: LogFormat): void {
    this.format = format;
    this.inner = createLogReader(format, this.opts);
  }

  push(chunk: Uint8Array): CanFrame[] {
    if (this.inner) return this.inner.push(chunk);
    if (this.failed) return [];
    this.head.push(chunk.slice());
    this.headLength += chunk.length;
    return this.headLength >= SNIFF_BYTES ? this.decide() : [];
  }

  private decide(): CanFrame[] {
    const all = new Uint8Array(this.headLength);
    let at = 0;
    for (const p of this.head) {
      all.set(p, at);
      at += p.length;
    }
    this.head = [];
    const format = detectLogFormat(all) ?? (this.opts.name ? detectLogFormat(this.opts.name) : null);
    if (!format || !formatSpec(format)) {
      this.failed = true;
      return [];
    }
    this.begin(format);
    return this.inner!.push(all);
  }

  end(): LogReadResult {
    const early = !this.inner && !this.failed ? this.decide() : [];
    if (!this.inner) return unrecognised();
    const r = this.inner.end();
    if (early.length) r.frames = early.concat(r.frames);
    return r;
  }
}

export function createAutoLogReader(opts: AutoReadOptions = {}): AutoLogReader {
  return new AutoLogReader(opts);
}

function readGzip(
  bytes: Uint8Array,
  format: LogFormat | null | undefined,
  opts: LogReadOptions & { maxInflatedBytes?: number },
): LogReadResult {
  const reader = new AutoLogReader({ ...opts, format });
  const frames: CanFrame[] = [];
  const max = opts.maxInflatedBytes ?? MAX_INFLATED;
  let total = 0;
  let problem = '';
  const gz = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > max) throw new Error(`more than ${max} bytes once inflated`);
    const got = reader.push(chunk);
    for (let i = 0; i < got.length; i++) frames.push(got[i]);
  });
  try {
    gz.push(bytes, true);
  } catch (e) {
    problem = `gzip data damaged or cut short: ${(e as Error).message}`;
  }
  const r = reader.end();
  if (frames.length) r.frames = frames.concat(r.frames);
  if (problem) {
    if (r.format === null) return { ...unrecognised(), error: `Could not inflate the gzip file: ${problem}` };
    addStreamProblem(r, bytes.length, problem, opts.maxWarnings);
  }
  return r;
}

/** Reads a log file (bytes; a string is taken as the file's text), gzip or not. Never throws. */
export function readLog(
  input: Uint8Array | string,
  format?: LogFormat | null,
  opts: LogReadOptions & { maxInflatedBytes?: number } = {},
): LogReadResult {
  let bytes: Uint8Array;
  try {
    bytes = toBytes(input);
  } catch {
    return { format: null, frames: [], warnings: [], skipped: 0, error: 'Input is neither bytes nor text' };
  }
  try {
    if (isGzip(bytes)) return readGzip(bytes, format, opts);
    const fmt = format ?? detectLogFormat(bytes);
    if (!fmt) return unrecognised();
    const spec = formatSpec(fmt);
    if (!spec) return { format: null, frames: [], warnings: [], skipped: 0, error: `Unknown log format "${String(fmt)}"` };
    if (spec.read) return spec.read(bytes, opts);
    const reader = spec.reader(opts);
    const first = reader.push(bytes);
    const r = reader.end();
    if (first.length) r.frames = first.concat(r.frames);
    return r;
  } catch (e) {
    // Readers are written not to throw; this is the last line of defence so a caller never crashes.
    return {
      format: format ?? null,
      frames: [],
      warnings: [],
      skipped: 0,
      error: `Could not read the file: ${(e as Error)?.message ?? e}`,
    };
  }
}

/** Writes frames as a complete log file. */
export function writeLog(frames: readonly CanFrame[], format: LogFormat, opts: LogWriteOptions = {}): Uint8Array {
  const spec = formatSpec(format);
  if (!spec) throw new Error(`Unknown log format "${String(format)}"`);
  if (spec.write) return spec.write(frames, opts);
  const w = spec.writer(opts);
  const parts = [w.write(frames), w.end()];
  const out = new Uint8Array(parts[0].length + parts[1].length);
  out.set(parts[0]);
  out.set(parts[1], parts[0].length);
  if (w.header) out.set(w.header());
  return out;
}

export { readAsc } from './asc-reader.ts';
export { writeAsc } from './asc-writer.ts';
export { readBlf } from './blf-reader.ts';
export { writeBlf } from './blf-writer.ts';
export { readCandump, writeCandump } from './candump.ts';
export { readTrc } from './trc-reader.ts';
export { writeTrc } from './trc-writer.ts';
