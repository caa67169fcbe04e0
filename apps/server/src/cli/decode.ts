import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { CompiledMessage, DbcDecoder } from '@loggerhead/can/dbc/dbc.decoder.ts';
import { compileDbc } from '@loggerhead/can/dbc/dbc.decoder.ts';
import type { LogFormat, LogReadResult } from '@loggerhead/can/logs/types.ts';
import { csvText } from '../lib/csv.ts';
import { FastCandump, type FrameVisitor, looksLikeCandump } from './candump-fast.ts';
import { readDbcFile } from './dbc.ts';
import { absent, ByteOut, bytesOf, type MessageOut, messageOut, pieceOf, putInt, writeSeconds, writeValue } from './decode-output.ts';

const USAGE = `Usage: loggerhead decode --dbc FILE --log FILE [--format jsonl|csv] [--labels]

Decodes a CAN log (candump -L, Vector ASC, BLF, PEAK TRC or ASAM MF4, detected from the content;
gzip too) with a DBC file. Prints one line per decoded frame, in log order; frames whose id the DBC
lacks are skipped.
The log is read as a stream: memory stays flat whatever its size.
  jsonl (default)  {"ts": seconds, "channel": "can0", "id": n, "ext": bool, "message": name, "signals": {...}}
  csv              one row per frame: ts,channel,id,ext,message, then a MESSAGE.SIGNAL column per signal
                   (the file is read twice: once to find the messages it holds)
  --labels         jsonl: add "labels": {signal: value-table label} where the DBC has one
A float signal holding NaN or an infinity is written as "NaN", "Infinity", "-Infinity" (JSON strings;
bare in CSV); an integer beyond 2^53 (signals over 53 bits) as its exact digits, a string in JSON.`;

/**
 * Bytes read at a time. Small, so that the output of one piece (5 to 10 times its size) is written
 * while it is still in the processor's cache: with pieces of megabytes, copying the output into the
 * file cost the kernel several times as much.
 */
const PIECE = 1 << 16;
/** Output is written in pieces of about this many bytes (at the latest after each piece read). */
const FLUSH_AT = 1 << 18;

/** Buffered stdout that waits when the pipe is full and stops quietly when it is closed (`| head`). */
class Output extends ByteOut {
  closed = false;

  constructor() {
    super(FLUSH_AT + (1 << 16));
    process.stdout.on('error', () => {
      this.closed = true;
    });
  }

  async flush(): Promise<void> {
    if (this.closed || this.pos === 0) return;
    const piece = this.take();
    // The buffer is used again only once the write is done with it.
    const more = process.stdout.write(piece, (err) => {
      if (!err) this.give(piece);
    });
    if (!more)
      await new Promise<void>((ok) => {
        const done = () => {
          process.stdout.off('drain', done).off('error', done);
          ok();
        };
        process.stdout.on('drain', done).on('error', done);
      });
  }
}

/** The first bytes of a file (to recognise its format), inflated when it is gzip. */
async function head(path: string): Promise<{ bytes: Uint8Array; gzip: boolean }> {
  const fh = await open(path, 'r');
  try {
    const buf = new Uint8Array(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, bytesRead);
    const gzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
    if (!gzip) return { bytes, gzip };
    const inflated: Buffer[] = [];
    let size = 0;
    for await (const part of createReadStream(path, { highWaterMark: PIECE }).pipe(createGunzip())) {
      inflated.push(part as Buffer);
      size += (part as Buffer).length;
      if (size >= buf.length) break;
    }
    return { bytes: Buffer.concat(inflated), gzip };
  } finally {
    await fh.close();
  }
}

/**
 * Reads the log as a stream and visits its data frames in log order (remote and error frames carry
 * nothing to decode). candump takes the fast path (no object per frame); the other formats go through
 * the library's stream readers. `piece` runs after each piece read (to flush output). Resolves with
 * the reader's result (warnings, error).
 */
async function readFrames(
  path: string,
  format: LogFormat,
  gzip: boolean,
  visit: FrameVisitor,
  piece: () => Promise<void>,
): Promise<LogReadResult> {
  const each = (frames: { ts: number; channel: number; id: number; ext: boolean; rtr: boolean; err: boolean; data: Uint8Array }[]) => {
    for (const f of frames) if (!f.rtr && !f.err) visit(f.ts, f.channel, f.id, f.ext, f.data, NO_LINE, -1, -1);
  };
  if (format === 'mf4' && !gzip) {
    // MF4 links back and forth: read from the file by random access, in batches.
    const { readMf4File } = await import('../lib/mf4-file.ts');
    return readMf4File(path, {}, async (batch) => {
      each(batch);
      await piece();
    });
  }
  const source = createReadStream(path, { highWaterMark: PIECE });
  const input = gzip ? source.pipe(createGunzip()) : source;
  if (format === 'candump') {
    const reader = new FastCandump(visit);
    for await (const b of input) {
      reader.push(b as Buffer);
      await piece();
    }
    return reader.end();
  }
  const { createLogReader } = await import('@loggerhead/can/logs/index.ts');
  const reader = createLogReader(format);
  for await (const b of input) {
    each(reader.push(b as Buffer));
    await piece();
  }
  const r = reader.end();
  each(r.frames);
  return r;
}

export async function decode(args: string[]): Promise<number> {
  let opts: { dbc?: string; log?: string; format?: string; labels?: boolean; help?: boolean };
  try {
    opts = parseArgs({
      args,
      options: {
        dbc: { type: 'string' },
        log: { type: 'string' },
        format: { type: 'string', default: 'jsonl' },
        labels: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    console.error(`loggerhead decode: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  if (!opts.dbc || !opts.log || (opts.format !== 'jsonl' && opts.format !== 'csv')) {
    console.error(USAGE);
    return 2;
  }

  let decoder: DbcDecoder;
  try {
    const r = await readDbcFile(opts.dbc);
    if (!r.ok) {
      console.error(`${opts.dbc}:${r.error.line}:${r.error.col} ${r.error.reason}`);
      return 1;
    }
    decoder = compileDbc(r.dbc);
  } catch (e) {
    console.error(`loggerhead decode: ${opts.dbc}: ${(e as Error).message}`);
    return 1;
  }
  let format: LogFormat | null;
  let gzip: boolean;
  let start: number | undefined;
  try {
    const h = await head(opts.log);
    gzip = h.gzip;
    // candump needs none of the other readers: they are loaded only for the other formats.
    const logs = looksLikeCandump(h.bytes) ? null : await import('@loggerhead/can/logs/index.ts');
    format = logs ? logs.detectLogFormat(h.bytes) : 'candump';
    if (logs && format && format !== 'candump') {
      // Times print as the log writes them: since the recording start of an ASC/BLF/… header.
      const probe = logs.createLogReader(format);
      probe.push(h.bytes);
      start = probe.end().startTime;
    }
  } catch (e) {
    console.error(`loggerhead decode: ${opts.log}: ${(e as Error).message}`);
    return 1;
  }
  if (!format) {
    console.error(`loggerhead decode: ${opts.log}: Unrecognised log format (expected candump -L, Vector ASC, BLF, PEAK TRC or ASAM MF4)`);
    return 1;
  }

  const out = new Output();
  const visit =
    opts.format === 'jsonl'
      ? jsonlWriter(decoder, start, !!opts.labels, out)
      : await csvWriter(decoder, start, out, opts.log, format, gzip);
  let result: LogReadResult;
  try {
    result = await readFrames(opts.log, format, gzip, visit, async () => {
      if (out.pos >= FLUSH_AT) await out.flush();
    });
  } catch (e) {
    console.error(`loggerhead decode: ${opts.log}: ${(e as Error).message}`);
    return 1;
  }
  await out.flush();
  for (const w of result.warnings.slice(0, 5)) console.error(`${opts.log}:${w.line ?? w.offset ?? '?'} ${w.message} (skipped)`);
  if (result.error) {
    console.error(`loggerhead decode: ${opts.log}: ${result.error}`);
    return 1;
  }
  return 0;
}

const NO_LINE = new DataView(new ArrayBuffer(0));
const CHANNELS = Array.from({ length: 256 }, (_, i) => pieceOf(bytesOf(`can${i}`)));
const TS = pieceOf(bytesOf('{"ts": '));
const CHANNEL = pieceOf(bytesOf(', "channel": "'));
const ID = pieceOf(bytesOf('", "id": '));
const LABELS = bytesOf(', "labels": ');

/** The timestamp: copied from a candump line when it is already in print form, else written. */
function writeTime(out: ByteOut, ts: number, base: number | undefined, line: DataView, t0: number, t1: number): void {
  if (t0 >= 0 && base === undefined) out.copy(line, t0, t1);
  else writeSeconds(out, base === undefined ? ts : ts - base);
}

/** Where the writers put their lines; `closed` stops them (the reader of stdout has gone). */
export type LineOut = ByteOut & { closed: boolean };

/** Writes each decoded frame as a JSON line. */
export function jsonlWriter(decoder: DbcDecoder, start: number | undefined, labels: boolean, out: LineOut): FrameVisitor {
  const values = new Float64Array(decoder.maxSignals);
  const outs: (MessageOut | undefined)[] = [];
  return (ts, channel, id, ext, data, line, t0, t1) => {
    if (out.closed) return;
    const m = decoder.decodeInto(id, ext, data, values);
    if (!m) return;
    let t = outs[m.index];
    if (!t) t = outs[m.index] = messageOut(m, null);
    out.ensure(t.room);
    out.piece(TS);
    writeTime(out, ts, start, line, t0, t1);
    out.piece(CHANNEL);
    out.piece(CHANNELS[channel]);
    out.piece(ID);
    out.int(id);
    out.piece(t.head);
    let first = true;
    for (let i = 0; i < t.key.length; i++) {
      const v = values[i];
      if (Number.isNaN(v) && absent(decoder, t, i, v, data)) continue;
      out.piece(first ? t.key[i] : t.nextKey[i]);
      first = false;
      // A 32-bit integer is what most signals hold, a single digit (flags) what many: written here
      // (as writeValue would).
      if ((v | 0) === v) {
        if (v >= 0 && v < 10) out.byte(48 + v);
        else out.pos = putInt(out.buf, out.pos, v);
      } else writeValue(out, decoder, t, i, v, data, true);
    }
    out.byte(125); // }
    if (labels) {
      const l = bytesOf(JSON.stringify(decoder.decode({ id, ext, data }, { labels: true })?.labels ?? {}));
      out.ensure(l.length + LABELS.length + 2);
      out.bytes(LABELS);
      out.bytes(l);
    }
    out.byte(125);
    out.byte(10);
  };
}

/**
 * Writes each decoded frame as a CSV row. Columns are the signals of the messages that occur in the
 * log, in DBC order: a first pass over the file finds them (a stream too, so memory stays flat).
 */
async function csvWriter(
  decoder: DbcDecoder,
  start: number | undefined,
  out: Output,
  path: string,
  format: LogFormat,
  gzip: boolean,
): Promise<FrameVisitor> {
  const seen = new Uint8Array(decoder.messages.length);
  await readFrames(
    path,
    format,
    gzip,
    (_ts, _channel, id, ext) => {
      const m = decoder.lookup(id, ext);
      if (m) seen[m.index] = 1;
    },
    async () => {},
  );
  return csvRows(
    decoder,
    start,
    out,
    decoder.messages.filter((m) => seen[m.index] === 1),
  );
}

/** Writes the CSV header for the messages `used` (in DBC order), then each decoded frame as a row. */
export function csvRows(decoder: DbcDecoder, start: number | undefined, out: LineOut, used: CompiledMessage[]): FrameVisitor {
  const column: number[] = [];
  let width = 0;
  for (const m of used) {
    column[m.index] = width;
    width += m.names.length;
  }
  out.line(['ts', 'channel', 'id', 'ext', 'message', ...used.flatMap((m) => m.names.map((n) => csvText(`${m.name}.${n}`)))].join(','));
  const values = new Float64Array(decoder.maxSignals);
  const outs: (MessageOut | undefined)[] = [];
  return (ts, channel, id, ext, data, line, t0, t1) => {
    if (out.closed) return;
    const m = decoder.decodeInto(id, ext, data, values);
    if (!m) return;
    let t = outs[m.index];
    if (!t) t = outs[m.index] = messageOut(m, { at: column[m.index], width });
    out.ensure(t.room);
    writeTime(out, ts, start, line, t0, t1);
    out.byte(44);
    out.piece(CHANNELS[channel]);
    out.byte(44);
    out.int(id);
    out.piece(t.head);
    out.piece(t.before);
    for (let i = 0; i < t.key.length; i++) {
      out.byte(44);
      const v = values[i];
      if ((v | 0) === v) {
        if (v >= 0 && v < 10) out.byte(48 + v);
        else out.pos = putInt(out.buf, out.pos, v);
      } else if (!(Number.isNaN(v) && absent(decoder, t, i, v, data))) writeValue(out, decoder, t, i, v, data, false);
    }
    out.piece(t.after);
    out.byte(10);
  };
}
