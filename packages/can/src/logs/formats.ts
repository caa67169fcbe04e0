/**
 * The log formats, one table entry each: how a file is recognised (magic bytes or a first line,
 * and its file name extensions), its stream reader and writer, and optional whole-file fast
 * paths. `readLog`, `writeLog`, `createLogReader`, `createLogWriter` and `detectLogFormat` know
 * the formats only through this table: a new format is one entry (and its name in `LogFormat`).
 */
import type { CanFrame } from '../frame.ts';
import { AscParser, readAsc } from './asc-reader.ts';
import { AscWriter, writeAsc } from './asc-writer.ts';
import { BlfParser, readBlf } from './blf-reader.ts';
import { BlfWriter, writeBlf } from './blf-writer.ts';
import { CandumpParser, CandumpWriter, readCandump, writeCandump } from './candump.ts';
import { BinaryStream, type LogStreamReader, type LogStreamWriter, TextStream } from './log-stream.ts';
import { isMf4, NAME as MF4_NAME, Mf4PushParser, readMf4 } from './mf4/mf4-reader.ts';
import { Mf4Writer, writeMf4 } from './mf4/mf4-writer.ts';
import { readTrc, TrcParser } from './trc-reader.ts';
import { TrcWriter, writeTrc } from './trc-writer.ts';
import type { LogFormat, LogReadOptions, LogReadResult, LogWriteOptions } from './types.ts';

/** What a text format makes of one (trimmed, non-empty) line near the start of a file. */
export type LineSniff = 'yes' | 'header' | 'no';

export interface LogFormatSpec {
  /** Name for messages ("Not a Vector ASC log …"). */
  name: string;
  /** File name extensions, lower case, without the dot; the first is the one written. */
  extensions: readonly string[];
  /** Binary formats: the file starts with this format's magic bytes. */
  magic?: (head: Uint8Array) => boolean;
  /** Text formats: `yes` for a line of this format, `header` for one it allows before its first frame. */
  sniffLine?: (line: string) => LineSniff;
  reader: (opts: LogReadOptions) => LogStreamReader;
  writer: (opts: LogWriteOptions) => LogStreamWriter;
  /** A whole file at once, when faster than one piece through `reader`. */
  read?: (bytes: Uint8Array, opts: LogReadOptions) => LogReadResult;
  write?: (frames: readonly CanFrame[], opts: LogWriteOptions) => Uint8Array;
}

const TRC_V2_LINE = /^\d+\s+\d+\.\d+\s+(DT|FD|FB|FE|BI|RR|ER|ST|EC|EV)\s/;

export const LOG_FORMAT_SPECS: Record<LogFormat, LogFormatSpec> = {
  candump: {
    name: 'candump -L',
    extensions: ['log', 'candump'],
    sniffLine: (line) => (/^\(\d+(\.\d*)?\)\s+\S+\s+[0-9A-Fa-f]+#/.test(line) ? 'yes' : 'no'),
    reader: (opts) => new TextStream(new CandumpParser(opts)),
    writer: (opts) => new CandumpWriter(opts),
    read: readCandump,
    write: writeCandump,
  },
  asc: {
    name: 'Vector ASC',
    extensions: ['asc'],
    sniffLine: (line) => {
      if (/^(date\s|base\s+(hex|dec)|(no\s+)?internal\s+events|begin\s+triggerblock)/i.test(line)) return 'yes';
      if (/^\d+\.\d+\s+(\d+\s+(\S+\s+(Rx|Tx)|ErrorFrame)|CANFD\s)/i.test(line)) return 'yes';
      return line.startsWith('//') ? 'header' : 'no';
    },
    reader: (opts) => new TextStream(new AscParser(opts)),
    writer: (opts) => new AscWriter(opts),
    read: readAsc,
    write: writeAsc,
  },
  blf: {
    name: 'Vector BLF',
    extensions: ['blf'],
    magic: (b) => b.length >= 4 && b[0] === 0x4c && b[1] === 0x4f && b[2] === 0x47 && b[3] === 0x47,
    reader: (opts) => new BinaryStream(new BlfParser(opts)),
    writer: (opts) => new BlfWriter(opts),
    read: readBlf,
    write: writeBlf,
  },
  trc: {
    name: 'PEAK TRC',
    extensions: ['trc'],
    sniffLine: (line) => {
      if (/^;\$FILEVERSION\s*=/i.test(line) || /^\d+\)\s+\d+(\.\d+)?\s+\S/.test(line) || TRC_V2_LINE.test(line)) return 'yes';
      return line.startsWith(';') ? 'header' : 'no';
    },
    reader: (opts) => new TextStream(new TrcParser(opts)),
    writer: (opts) => new TrcWriter(opts),
    read: readTrc,
    write: writeTrc,
  },
  mf4: {
    name: MF4_NAME,
    extensions: ['mf4', 'mdf'],
    magic: isMf4,
    reader: (opts) => new BinaryStream(new Mf4PushParser(opts)),
    writer: (opts) => new Mf4Writer(opts),
    read: readMf4,
    write: writeMf4,
  },
};

/** Every format, in the table's order. */
export const LOG_FORMATS = Object.keys(LOG_FORMAT_SPECS) as LogFormat[];

/** The format's table entry, or undefined for a name that is none. */
export function formatSpec(format: string): LogFormatSpec | undefined {
  return Object.hasOwn(LOG_FORMAT_SPECS, format) ? LOG_FORMAT_SPECS[format as LogFormat] : undefined;
}

export function createLogReader(format: LogFormat, opts: LogReadOptions = {}): LogStreamReader {
  const spec = formatSpec(format);
  if (!spec) throw new Error(`Unknown log format "${String(format)}"`);
  return spec.reader(opts);
}

export function createLogWriter(format: LogFormat, opts: LogWriteOptions = {}): LogStreamWriter {
  const spec = formatSpec(format);
  if (!spec) throw new Error(`Unknown log format "${String(format)}"`);
  return spec.writer(opts);
}
