/**
 * ASAM MDF 4 (MF4) bus-logging reader: CAN and CAN FD data frames, remote frames and error
 * frames from `CAN_DataFrame` / `CAN_RemoteFrame` / `CAN_ErrorFrame` channel groups, in sorted
 * or unsorted data groups, raw (DT), compressed (DZ, deflate or transposed deflate) or in
 * lists (DL, HL); finalized files and unfinalized ones (`UnFinMF`, as CANedge loggers write
 * them: the last DT block runs to the next block or the end of the file).
 *
 * Frame time = hd_start_time_ns + the group's time channel (through its conversion), in µs.
 * Frames of several data groups are merged by time; within a group they keep file order.
 * BusChannel n is our channel n-1. Other groups (signals, LIN, …) are passed over.
 *
 * Structural damage is reported with the byte offset where it was found: in the metadata as
 * `error` (nothing read), in a data group's records as a warning (that group stops there).
 */
import type { CanFrame } from '../../frame.ts';
import { FrameSink } from '../frame-sink.ts';
import { PayloadArena } from '../payload-arena.ts';
import type { LogReadOptions, LogReadResult } from '../types.ts';
import { BlockReader } from './mf4-blocks.ts';
import { type Io, Mf4Error, PageCache, PushRunner, type RandomAccessSource, runSync } from './mf4-io.ts';

const NO_BYTES = new Uint8Array(0);

import { readDataGroups, readFileHeader } from './mf4-meta.ts';
import { GroupReader, type ReadContext } from './mf4-records.ts';

export type { RandomAccessSource } from './mf4-io.ts';

/** Frames handed out per batch by the streaming readers. */
const BATCH = 8192;

/** What the reader has produced so far; drivers take the frames as they go. */
class Output {
  readonly sink: FrameSink;
  /** Frames kept since the last hand-out point. */
  fresh = 0;
  startTime: number | undefined;
  error: Mf4Error | undefined;

  constructor(opts: LogReadOptions) {
    this.sink = new FrameSink(opts);
  }

  keep(f: CanFrame): void {
    // GroupReader has checked the frame at its offset already: this never reports.
    this.sink.atOffset(f, -1);
    this.fresh++;
  }

  result(): LogReadResult {
    const r = this.sink.result('mf4', NAME, this.startTime);
    if (this.error) {
      r.format = null;
      r.frames = [];
      r.error = `Not a readable MF4 file: ${this.error.message} (byte ${this.error.offset})`;
      r.errorAt = { offset: this.error.offset };
    }
    return r;
  }
}

export const NAME = 'ASAM MF4';

/** The file starts with an MDF 4 identification ("MDF     " finalized, "UnFinMF " not). */
export function isMf4(b: Uint8Array): boolean {
  if (b.length < 8) return false;
  const tag = String.fromCharCode(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
  return tag === 'MDF     ' || tag === 'UnFinMF ';
}

/** A point where a driver may hand out the frames so far (no bytes needed). */
function* checkpoint(): Io<void> {
  yield { offset: -1, length: 0, min: 0 };
}

function* readFrames(out: Output, opts: LogReadOptions): Io<void> {
  try {
    const cache = new PageCache();
    const header = yield* readFileHeader(cache);
    // A start in local wall-clock time is corrected by the recording site's offset, as for ASC/BLF.
    const offsetUs = header.localTime ? -(opts.utcOffsetMinutes ?? 0) * 60_000_000 : 0;
    const startUs = header.startUs + offsetUs;
    if (startUs > 0) out.startTime = startUs;
    const reader = new BlockReader(cache);
    const groups = yield* readDataGroups(reader);
    const ctx: ReadContext = {
      header,
      reader,
      warnings: out.sink.warnings,
      arena: new PayloadArena(),
      baseUs: startUs + header.startNs / 1000,
    };
    const readers: GroupReader[] = [];
    for (const dg of groups) {
      try {
        const r = yield* GroupReader.open(ctx, dg);
        if (r) readers.push(r);
      } catch (e) {
        if (!(e instanceof Mf4Error)) throw e;
        out.sink.warnings.offset(e.offset, e.message);
      }
    }
    if (readers.length === 0) {
      if (out.sink.warnings.count === 0)
        throw new Mf4Error(64, 'the file holds no CAN bus logging (no CAN_DataFrame, CAN_RemoteFrame or CAN_ErrorFrame channels)');
      return;
    }
    if (readers.length === 1) {
      const r = readers[0];
      while (yield* r.fill()) {
        const got = r.takeAll();
        for (let i = 0; i < got.length; i++) out.keep(got[i]);
        if (out.fresh >= BATCH) yield* checkpoint();
      }
      return;
    }
    // Several data groups (sorted files): merge them by time.
    let active = readers;
    for (;;) {
      for (const r of active) if (!r.peek()) yield* r.fill();
      active = active.filter((r) => r.peek());
      if (active.length === 0) return;
      let best = active[0];
      let bestTs = (best.peek() as CanFrame).ts;
      for (let i = 1; i < active.length; i++) {
        const ts = (active[i].peek() as CanFrame).ts;
        if (ts < bestTs) {
          best = active[i];
          bestTs = ts;
        }
      }
      out.keep(best.take());
      if (out.fresh >= BATCH) yield* checkpoint();
    }
  } catch (e) {
    if (!(e instanceof Mf4Error)) throw e;
    out.error = e;
  }
}

/** Reads a whole MF4 file held in memory. */
export function readMf4(bytes: Uint8Array, opts: LogReadOptions = {}): LogReadResult {
  const out = new Output(opts);
  runSync(readFrames(out, opts), bytes);
  return out.result();
}

/**
 * Reads an MF4 file through a random-access source (e.g. a file handle) in batches of frames,
 * with memory bounded by the file's block sizes, not its length. After the iteration,
 * `result()` gives the warnings, start time and error (its `frames` is empty).
 */
export class Mf4FileReader implements AsyncIterable<CanFrame[]> {
  private readonly out: Output;

  constructor(
    private readonly source: RandomAccessSource,
    private readonly opts: LogReadOptions = {},
  ) {
    this.out = new Output(opts);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<CanFrame[]> {
    const gen = readFrames(this.out, this.opts);
    let r = gen.next();
    while (!r.done) {
      const { offset, length } = r.value;
      const bytes = offset < 0 || length === 0 ? NO_BYTES : await this.source(offset, length);
      // Frames go out between reads, at the pace the consumer takes them.
      if (this.out.fresh >= BATCH) yield this.take();
      r = gen.next(bytes);
    }
    const rest = this.take();
    if (rest.length) yield rest;
  }

  private take(): CanFrame[] {
    this.out.fresh = 0;
    return this.out.sink.drain();
  }

  /** The result once the iteration is over; its `frames` is empty (they were handed out). */
  result(): LogReadResult {
    return this.out.result();
  }
}

/** Reads MF4 from pieces pushed in file order (keeps the whole file: prefer `Mf4FileReader`). */
export class Mf4PushParser {
  private readonly out: Output;
  private readonly runner: PushRunner<void>;

  constructor(opts: LogReadOptions = {}) {
    this.out = new Output(opts);
    this.runner = new PushRunner(readFrames(this.out, opts));
  }

  push(chunk: Uint8Array): void {
    this.runner.push(chunk);
  }

  drain(): CanFrame[] {
    this.out.fresh = 0;
    return this.out.sink.drain();
  }

  result(): LogReadResult {
    this.runner.end();
    return this.out.result();
  }
}
