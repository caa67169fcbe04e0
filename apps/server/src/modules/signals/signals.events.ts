// Events this module emits on `ctx.events`, added to the shared event map by declaration merging so
// that the event bus file needs no edit.

/** Samples decoded from one committed batch group of a device, for real-time curves. */
export interface DecodedSamplesEvent {
  tenantId: string;
  thingsId: string;
  /** Per signal: µs times and values, same length, time-ordered. */
  series: { channel: number; message: string; signal: string; unit: string; ts: Float64Array; values: Float64Array }[];
}

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** Decoded signal samples were stored (emitted only while someone listens). */
    'signals.decoded': DecodedSamplesEvent;
    /** A channel was unbound from its DBC: its decoded data is gone; dashboards of it should go too. */
    'signals.channel-cleared': { tenantId: string; thingsId: string; channel: number };
  }
}
