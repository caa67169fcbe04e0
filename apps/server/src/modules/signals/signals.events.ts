// Events this module emits on `ctx.events`, added to the shared event map by declaration merging so
// that the event bus file needs no edit.

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

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** Decoded signal samples were stored (emitted only while someone listens). */
    'signals.decoded': DecodedBatch;
    /** A channel was unbound from its DBC: its decoded data is gone; dashboards of it should go too. */
    'signals.channel-cleared': { tenantId: string; thingsId: string; channel: number };
  }
}
