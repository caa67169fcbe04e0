import { forEachFrame } from '@loggerhead/can/protocol/batch.ts';
import { thinSeries } from '@loggerhead/can/series/thin.ts';
import type { LiveFrame, LiveSignalSamples } from '@loggerhead/contract';
import type { EventBus } from '../lib/events.ts';
import type { DecodedBatch } from '../modules/signals/signals.events.ts';
import type { LiveOut } from './live-channel.ts';

export interface LiveSubscriber {
  send(msg: LiveOut): void;
  /** Bytes queued on the socket: a slow browser gets frames dropped, never the server stalled. */
  buffered(): number;
}

interface Subscription {
  sub: LiveSubscriber;
  channels: Set<number> | null;
  ids: Set<number> | null;
  pending: LiveFrame[];
  dropped: number;
}

/** What the hub reads of a decoded batch: the stored samples, for real-time curves. */
export type DecodedSamples = Pick<DecodedBatch, 'tenantId' | 'thingsId' | 'series'>;

interface PendingSignal {
  channel: number;
  signal: string;
  unit: string;
  t: number[];
  v: number[];
  thinned: number;
}

interface SignalSubscription {
  sub: LiveSubscriber;
  tenantId: string;
  channels: Set<number> | null;
  signals: Set<string> | null;
  pending: Map<string, PendingSignal>;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0').toUpperCase());
export function hex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += HEX[b[i]];
  return s;
}

/**
 * Fans committed frames and decoded samples out to browsers: per device, per subscriber filters,
 * flushed as one message per device every `intervalMs`, at most `maxPerFlush` frames (the rest
 * counted as dropped). Chunks are read only when someone watches that device; decoded samples come
 * from the event bus (`signals.decoded`), heard while some browser watches signals. Times go out in
 * ms since the epoch, µs kept as the fraction (the contract's LiveServerMessage).
 */
export class LiveHub {
  private byDevice = new Map<string, Set<Subscription>>();
  private signalsByDevice = new Map<string, Set<SignalSubscription>>();
  private signalCount = 0;
  private decodedOff: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Called when a device gets its first watcher or loses its last one (frames or signals). */
  onWatchChange: ((thingsId: string) => void) | null = null;

  constructor(
    private readonly opts: {
      /** Where decoded samples come from (`signals.decoded`); without it only `publishSignals` feeds the hub. */
      events?: Pick<EventBus, 'on'>;
      intervalMs?: number;
      maxPerFlush?: number;
      maxBuffered?: number;
      /** Samples per signal per push; more are thinned (min/max per slice, newest kept). */
      maxSamplesPerSignal?: number;
    } = {},
  ) {}

  start() {
    this.timer = setInterval(() => this.flush(), this.opts.intervalMs ?? 100);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.decodedOff?.();
    this.decodedOff = null;
  }

  watchingSignals(thingsId: string): boolean {
    return (this.signalsByDevice.get(thingsId)?.size ?? 0) > 0;
  }

  /**
   * Decoded samples of a device for one browser (access already checked for `tenantId`), optionally
   * only some channels and `Message.Signal` names. Returns the unsubscribe function.
   */
  subscribeSignals(
    tenantId: string,
    thingsId: string,
    sub: LiveSubscriber,
    filter: { channels?: number[]; signals?: string[] } = {},
  ): () => void {
    const s: SignalSubscription = {
      sub,
      tenantId,
      channels: filter.channels?.length ? new Set(filter.channels) : null,
      signals: filter.signals?.length ? new Set(filter.signals) : null,
      pending: new Map(),
    };
    const set = this.signalsByDevice.get(thingsId) ?? new Set();
    set.add(s);
    this.signalsByDevice.set(thingsId, set);
    // The bus is heard only while some browser watches signals.
    if (this.signalCount++ === 0 && this.opts.events)
      this.decodedOff = this.opts.events.on('signals.decoded', (e) => this.publishSignals(e));
    if (set.size === 1) this.onWatchChange?.(thingsId);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      set.delete(s);
      if (!set.size && this.signalsByDevice.get(thingsId) === set) {
        this.signalsByDevice.delete(thingsId);
        this.onWatchChange?.(thingsId);
      }
      if (--this.signalCount === 0) {
        this.decodedOff?.();
        this.decodedOff = null;
      }
    };
  }

  /**
   * Decoded samples of one batch (µs times): queued for the device's signal subscribers of the same
   * tenant. The bus calls it, and the cluster fan-out with the samples of another server copy.
   */
  publishSignals(e: DecodedSamples) {
    const subs = this.signalsByDevice.get(e.thingsId);
    if (!subs?.size) return;
    const max = this.opts.maxSamplesPerSignal ?? 200;
    for (const s of subs) {
      if (s.tenantId !== e.tenantId) continue;
      for (const x of e.series) {
        if (s.channels && !s.channels.has(x.channel)) continue;
        const ref = `${x.message}.${x.signal}`;
        if (s.signals && !s.signals.has(ref)) continue;
        const key = `${x.channel}/${ref}`;
        let p = s.pending.get(key);
        if (!p) {
          p = { channel: x.channel, signal: ref, unit: x.unit, t: [], v: [], thinned: 0 };
          s.pending.set(key, p);
        }
        for (let i = 0; i < x.ts.length; i++) {
          const v = x.values[i];
          if (!Number.isFinite(v)) continue;
          p.t.push(x.ts[i] / 1000);
          p.v.push(v);
        }
        // Memory stays bounded between pushes however fast the device sends.
        if (p.t.length > 4 * max) thinPending(p, max);
      }
    }
  }

  watching(thingsId: string): boolean {
    return (this.byDevice.get(thingsId)?.size ?? 0) > 0;
  }

  subscribe(thingsId: string, sub: LiveSubscriber, channels?: number[], ids?: number[]): () => void {
    const s: Subscription = {
      sub,
      channels: channels?.length ? new Set(channels) : null,
      ids: ids?.length ? new Set(ids) : null,
      pending: [],
      dropped: 0,
    };
    const set = this.byDevice.get(thingsId) ?? new Set();
    set.add(s);
    this.byDevice.set(thingsId, set);
    if (set.size === 1) this.onWatchChange?.(thingsId);
    return () => {
      set.delete(s);
      if (!set.size && this.byDevice.get(thingsId) === set) {
        this.byDevice.delete(thingsId);
        this.onWatchChange?.(thingsId);
      }
    };
  }

  /** Devices whose frames, and devices whose decoded signals, some browser of this copy watches. */
  watched(): { frames: string[]; signals: string[] } {
    return { frames: [...this.byDevice.keys()], signals: [...this.signalsByDevice.keys()] };
  }

  /** A committed chunk of a device (as stored: µs times). */
  publishChunk(thingsId: string, data: Uint8Array) {
    const subs = this.byDevice.get(thingsId);
    if (!subs?.size) return;
    const max = this.opts.maxPerFlush ?? 2000;
    for (const s of subs) {
      forEachFrame(data, { channels: s.channels, ids: s.ids }, (ts, ch, id, fl, _len, payload) => {
        if (s.pending.length >= max) {
          s.dropped++;
          return true;
        }
        s.pending.push([ts / 1000, ch, id, fl, hex(payload)]);
        return true;
      });
    }
  }

  publishStatus(thingsId: string, online: boolean) {
    for (const s of this.byDevice.get(thingsId) ?? []) s.sub.send({ t: 'status', things_id: thingsId, online });
  }

  flush() {
    const maxBuffered = this.opts.maxBuffered ?? 4 * 1024 * 1024;
    const maxSamples = this.opts.maxSamplesPerSignal ?? 200;
    for (const [thingsId, subs] of this.signalsByDevice) {
      for (const s of subs) {
        if (!s.pending.size) continue;
        const pending = [...s.pending.values()];
        s.pending.clear();
        // A browser that falls behind misses samples; the next push starts afresh.
        if (s.sub.buffered() > maxBuffered) continue;
        const out: LiveSignalSamples[] = [];
        for (const p of pending) {
          thinPending(p, maxSamples);
          if (!p.t.length) continue;
          const x: LiveSignalSamples = { channel: p.channel, signal: p.signal, unit: p.unit, t: p.t, v: p.v };
          if (p.thinned) x.thinned = p.thinned;
          out.push(x);
        }
        if (out.length) s.sub.send({ t: 'signals', things_id: thingsId, s: out });
      }
    }
    for (const [thingsId, subs] of this.byDevice) {
      for (const s of subs) {
        if (!s.pending.length && !s.dropped) continue;
        if (s.sub.buffered() > maxBuffered) {
          s.dropped += s.pending.length;
          s.pending = [];
          continue;
        }
        const msg: Extract<LiveOut, { t: 'frames' }> = { t: 'frames', things_id: thingsId, f: s.pending };
        if (s.dropped) msg.dropped = s.dropped;
        s.pending = [];
        s.dropped = 0;
        s.sub.send(msg);
      }
    }
  }
}

function thinPending(p: PendingSignal, max: number) {
  if (p.t.length <= max) return;
  const before = p.t.length;
  const r = thinSeries(p.t, p.v, max);
  p.t = r.t;
  p.v = r.v;
  p.thinned += before - r.t.length;
}
