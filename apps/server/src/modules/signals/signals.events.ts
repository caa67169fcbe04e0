// Events this module emits on `ctx.events`, added to the shared event map by declaration merging so
// that the event bus file needs no edit.
import type { DbcDecoder } from '@loggerhead/can';
import type { FrameChunk } from '../../ingest/chunk-writer.ts';

/** Stored samples of one signal: µs times and values, same length, time-ordered. */
export interface DecodedSeries {
  channel: number;
  message: string;
  signal: string;
  unit: string;
  ts: Float64Array;
  values: Float64Array;
}

/**
 * What the decode stage made of one committed batch group of a device: the samples it stored, for
 * real-time curves (live hub, cluster fan-out).
 */
export interface DecodedBatch {
  tenantId: string;
  thingsId: string;
  series: DecodedSeries[];
}

/**
 * One frame as the decode stage decoded it: its message's values decoded with `decoder` (indexed
 * like the message's signals), or `values` null when the DBC has no message for the frame.
 */
export interface DecodedRow {
  decoder: DbcDecoder;
  values: Float64Array | null;
}

/**
 * The frames a consumer wants decoded besides the stored signals (trigger rules on DBC signals, on
 * channels whose parsing may be paused): per channel, the DBC and the frames,
 * `(ext ? 0x2000_0000 : 0) + id`.
 */
export type FrameDemand = ReadonlyMap<number, { decoder: DbcDecoder; frames: ReadonlySet<number> }>;

/**
 * Every committed batch group of a device after the decode stage, in commit order: the chunks, and
 * per chunk the frames it decoded (by frame index) — each frame decoded once, for the stored signals
 * and for the demand together.
 */
export interface DecodedFrames {
  tenantId: string;
  thingsId: string;
  chunks: readonly FrameChunk[];
  rows: ReadonlyMap<number, DecodedRow>[];
}

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** Every committed batch group, decoded (trigger rules read it); emitted only while someone listens. */
    'signals.frames': DecodedFrames;
    /** Decoded signal samples were stored (emitted only while someone listens). */
    'signals.decoded': DecodedBatch;
    /** A channel was unbound from its DBC: its decoded data is gone; dashboards of it should go too. */
    'signals.channel-cleared': { tenantId: string; thingsId: string; channel: number };
  }
}
