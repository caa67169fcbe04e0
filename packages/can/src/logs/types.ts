import type { CanFrame } from '../frame.ts';

/** The log file formats `readLog` / `writeLog` understand (each one an entry of `formats.ts`). */
export type LogFormat = 'candump' | 'asc' | 'blf' | 'trc' | 'mf4';

/** A skipped line (text formats, 1-based) or object (BLF, byte offset in the file). */
export interface LogWarning {
  line?: number;
  offset?: number;
  message: string;
}

export interface LogReadResult {
  /** The format read, or null when it could not be recognised. */
  format: LogFormat | null;
  frames: CanFrame[];
  /** Skipped input, the first `maxWarnings` of them. */
  warnings: LogWarning[];
  /** Lines/objects skipped in all, listed or not. */
  skipped: number;
  /** Frames read in all, including those a stream reader handed out before its result. */
  framesRead?: number;
  /** Start of the recording in µs since the Unix epoch, when the file carries one. */
  startTime?: number;
  /** Set when the input is not a readable log at all; `frames` is then empty. Meant to be shown to the user. */
  error?: string;
  /** With `error`: the line (text) or byte offset (binary) that could not be read. */
  errorAt?: { line?: number; offset?: number };
}

export interface LogReadOptions {
  /** Most warnings kept (default 100); further skips are only counted. */
  maxWarnings?: number;
  /**
   * ASC and BLF store the start as local wall-clock time without a zone. By default that
   * wall-clock time is taken as UTC; give the recording site's offset (minutes east of UTC,
   * e.g. 120 for CEST) to get true epoch times.
   */
  utcOffsetMinutes?: number;
}

export interface LogWriteOptions {
  /**
   * ASC/BLF: recording start (µs since the epoch) for the header. Default and upper bound: the
   * earliest frame time; it is rounded down to a millisecond because the headers hold no more.
   */
  startTime?: number;
  /** Wall-clock offset written into ASC/BLF start times (see `LogReadOptions.utcOffsetMinutes`). */
  utcOffsetMinutes?: number;
  /** candump: interface name prefix, channel n is written as `${prefix}${n}` (default `can`). */
  interfacePrefix?: string;
  /** candump: append the ` R`/` T` direction suffix (default true). */
  direction?: boolean;
  /** BLF: deflate containers (default true; false writes uncompressed containers). */
  compress?: boolean;
  /** BLF: zlib level 1-9 (default 3: with the built-in compressor nearly twice as fast as 6 for ~4 % more bytes). */
  level?: number;
  /**
   * BLF: zlib-format compressor to use instead of the built-in pure-JS one (fflate), e.g.
   * `(b) => zlib.deflateSync(b)` on the server, which is several times faster.
   */
  deflate?: (raw: Uint8Array) => Uint8Array;
  /** TRC: file version to write (default 2.1, the one that carries CAN FD, remote and error frames). */
  trcVersion?: TrcVersion;
}

/** PEAK TRC file versions. */
export type TrcVersion = '1.0' | '1.1' | '1.2' | '1.3' | '2.0' | '2.1';

/** A reader that can be fed in pieces (see `createLogReader`). */
export interface IncrementalParser {
  /** Frames parsed since the last call. */
  drain(): CanFrame[];
  /** The final result; its `frames` are those not drained yet. */
  result(): LogReadResult;
}

/** Text formats: one call per line, `start..end` excluding the line break. */
export interface LineParser extends IncrementalParser {
  line(b: Uint8Array, start: number, end: number, line: number): void;
}
