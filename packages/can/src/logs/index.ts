/**
 * CAN log files in and out: candump `-L`, Vector ASC and Vector BLF.
 *
 * API (bytes in, bytes out, for every format, so callers never care whether a format is text):
 * - `detectLogFormat(bytesOrFileName)` sniffs the content (or the extension of a name);
 * - `readLog(bytes, format?)` never throws: bad lines/objects are skipped with a warning, and a
 *   file that is not a log at all comes back with `error` set and no frames;
 * - `writeLog(frames, format)` returns the file bytes (text formats are ASCII);
 * - `createLogReader(format)` / `createLogWriter(format)` read and write a file piece by piece
 *   with the same result as `readLog` / `writeLog`.
 */
import type { CanFrame } from '../frame.ts';
import { readAsc } from './asc-reader.ts';
import { writeAsc } from './asc-writer.ts';
import { readBlf } from './blf-reader.ts';
import { writeBlf } from './blf-writer.ts';
import { readCandump, writeCandump } from './candump.ts';
import { toBytes } from './text-cursor.ts';
import type { LogFormat, LogReadOptions, LogReadResult, LogWriteOptions } from './types.ts';

export { createLogReader, createLogWriter, type LogStreamReader, type LogStreamWriter } from './log-stream.ts';
export type { LogFormat, LogReadOptions, LogReadResult, LogWarning, LogWriteOptions } from './types.ts';
export { LOG_FORMATS } from './types.ts';

const EXTENSIONS: Record<string, LogFormat> = { log: 'candump', candump: 'candump', asc: 'asc', blf: 'blf' };

function detectText(b: Uint8Array): LogFormat | null {
  const head = new TextDecoder('latin1').decode(b.subarray(0, 4096));
  for (const raw of head.split('\n').slice(0, 64)) {
    const line = raw.trim();
    if (!line) continue;
    if (/^\(\d+(\.\d*)?\)\s+\S+\s+[0-9A-Fa-f]+#/.test(line)) return 'candump';
    if (/^(date\s|base\s+(hex|dec)|(no\s+)?internal\s+events|begin\s+triggerblock)/i.test(line)) return 'asc';
    if (/^\d+\.\d+\s+(\d+\s+(\S+\s+(Rx|Tx)|ErrorFrame)|CANFD\s)/i.test(line)) return 'asc';
    if (!line.startsWith('//')) return null;
  }
  return null;
}

/**
 * The format of a log file from its bytes, or from its file name when given a string.
 * Returns null when unknown.
 */
export function detectLogFormat(input: Uint8Array | string): LogFormat | null {
  if (typeof input === 'string') {
    const dot = input.lastIndexOf('.');
    return dot < 0 ? null : (EXTENSIONS[input.slice(dot + 1).toLowerCase()] ?? null);
  }
  if (input.length >= 4 && input[0] === 0x4c && input[1] === 0x4f && input[2] === 0x47 && input[3] === 0x47) return 'blf';
  return detectText(input);
}

/** Reads a log file (bytes; a string is taken as the file's text). Never throws. */
export function readLog(input: Uint8Array | string, format?: LogFormat | null, opts: LogReadOptions = {}): LogReadResult {
  let bytes: Uint8Array;
  try {
    bytes = toBytes(input);
  } catch {
    return { format: null, frames: [], warnings: [], error: 'Input is neither bytes nor text' };
  }
  const fmt = format ?? detectLogFormat(bytes);
  if (!fmt) return { format: null, frames: [], warnings: [], error: 'Unrecognised log format (expected candump -L, Vector ASC or BLF)' };
  try {
    switch (fmt) {
      case 'candump':
        return readCandump(bytes, opts);
      case 'asc':
        return readAsc(bytes, opts);
      case 'blf':
        return readBlf(bytes, opts);
      default:
        return { format: null, frames: [], warnings: [], error: `Unknown log format "${String(fmt)}"` };
    }
  } catch (e) {
    // Readers are written not to throw; this is the last line of defence so a caller never crashes.
    return { format: fmt, frames: [], warnings: [], error: `Could not read the ${fmt} file: ${(e as Error)?.message ?? e}` };
  }
}

/** Writes frames as a complete log file. */
export function writeLog(frames: readonly CanFrame[], format: LogFormat, opts: LogWriteOptions = {}): Uint8Array {
  switch (format) {
    case 'candump':
      return writeCandump(frames, opts);
    case 'asc':
      return writeAsc(frames, opts);
    case 'blf':
      return writeBlf(frames, opts);
    default:
      throw new Error(`Unknown log format "${String(format)}"`);
  }
}

export { readAsc, readBlf, readCandump, writeAsc, writeBlf, writeCandump };
