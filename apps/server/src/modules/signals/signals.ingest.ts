import type { CanFrame } from '@loggerhead/can';
import { FLAG_ERR, FLAG_EXT, FLAG_RTR, forEachFrame } from '@loggerhead/can/protocol/batch.ts';
import type { RawSql } from '../../db/client.ts';
import type { FrameChunk } from '../../ingest/chunk-writer.ts';
import type { EventBus } from '../../lib/events.ts';
import { LogThrottle } from '../../lib/log-throttle.ts';
import type { ChannelPlan, DecoderCache } from './decoder-cache.ts';
import type { DecodedBatch, DecodedRow, FrameDemand } from './signals.events.ts';
import type { SignalsRepository } from './signals.repository.ts';
import { type SeriesSamples, writeSamples } from './signals.writer.ts';

export interface IngestDeps {
  raw: RawSql;
  repo: SignalsRepository;
  cache: DecoderCache;
  events: EventBus;
  /** Capacity accounting (billing): bytes stored per device. */
  usage?: { add(tenantId: string, thingsId: string, bytes: number): Promise<void> };
  log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };
}

/** Where a committed batch group's demand comes from (trigger rules on DBC signals), by device. */
export type DemandSource = (tenantId: string, thingsId: string) => FrameDemand | null | Promise<FrameDemand | null>;
/** Reads ahead, in bulk, what `DemandSource` will be asked for the devices of a batch group. */
export type DemandPrefetch = (devices: { tenantId: string; thingsId: string }[]) => Promise<void>;

const EXT_BIT = 0x2000_0000;

/** Batch groups waiting beyond this are not decoded (and logged) rather than growing memory. */
const MAX_QUEUE = 256;
/**
 * …but still handed on, undecoded, to `signals.frames` listeners (trigger rules, which then decode what
 * they watch) up to this many, as the rule engine queued them before; beyond it they are dropped.
 */
const MAX_PASS_ON = 1024;

class Accumulator {
  ts = new Float64Array(64);
  values = new Float64Array(64);
  n = 0;
  constructor(
    readonly channel: number,
    readonly message: string,
    readonly signal: string,
    readonly unit: string,
    readonly factor: number,
    readonly offset: number,
  ) {}
  push(t: number, v: number) {
    if (this.n === this.ts.length) {
      const ts = new Float64Array(this.n * 2);
      ts.set(this.ts);
      this.ts = ts;
      const vs = new Float64Array(this.n * 2);
      vs.set(this.values);
      this.values = vs;
    }
    this.ts[this.n] = t;
    this.values[this.n++] = v;
  }
}

/**
 * Decodes a device's frames with the started bindings of its channels; one accumulator per signal.
 * Frames `demand` names (trigger rules) are decoded too, whatever the channel's parsing state, and
 * handed to `row`: each frame is decoded once, for both.
 */
export function decodeFrames(
  plans: Map<number, ChannelPlan>,
  each: (visit: (ts: number, channel: number, id: number, ext: boolean, data: Uint8Array) => void) => void,
  demand?: FrameDemand | null,
  row?: (r: DecodedRow) => void,
): Accumulator[] {
  const acc = new Map<string, Accumulator>();
  const sizes = [...plans.values()].map((p) => p.decoder.maxSignals);
  if (demand) for (const d of demand.values()) sizes.push(d.decoder.maxSignals);
  const out = new Float64Array(Math.max(1, ...sizes));
  each((ts, channel, id, ext, data) => {
    const plan = plans.get(channel);
    const want = demand?.get(channel);
    const wanted = want !== undefined && row !== undefined && want.frames.has((ext ? EXT_BIT : 0) + id);
    if (!plan) {
      if (!wanted) return;
      // Parsing paused (or not started): decoded for the rules only.
      const m = want.decoder.decodeInto(id, ext, data, out);
      row({ decoder: want.decoder, values: m ? out.slice(0, m.names.length) : null });
      return;
    }
    const m = plan.decoder.decodeInto(id, ext, data, out);
    // A rule compiled against another version of the DBC (changed a moment ago) decodes the frame itself.
    if (wanted && want.decoder === plan.decoder) row({ decoder: plan.decoder, values: m ? out.slice(0, m.names.length) : null });
    if (!m) return;
    const keep = plan.keep[m.index];
    if (!keep) return;
    for (const i of keep) {
      const v = out[i];
      if (Number.isNaN(v)) continue; // multiplexed out, or the frame is too short for it
      const key = `${channel}/${m.index}/${i}`;
      let a = acc.get(key);
      if (!a) {
        const sig = m.message.signals[i];
        a = new Accumulator(
          channel,
          m.name,
          m.names[i],
          sig.unit,
          sig.valueType === 'integer' ? sig.factor : 1,
          sig.valueType === 'integer' ? sig.offset : 0,
        );
        acc.set(key, a);
      }
      a.push(ts, v);
    }
  });
  return [...acc.values()];
}

/**
 * Decode-on-ingest. The ingest's chunk writer emits every freshly committed batch group
 * (`committed`); this decodes the frames of channels whose DBC parsing is started and stores the
 * samples. A re-sent batch is never emitted twice, so it is never decoded twice. Work runs one group
 * at a time, off the PUBACK path: raw frames are the record, decoded samples follow them.
 *
 * It is the one decode stage: the frames trigger rules on DBC signals watch (`demandFrom`) are
 * decoded in the same pass, and every committed group goes out as `signals.frames` with the frames
 * it decoded, before its samples are stored (docs/decisions/0112-one-decode-stage.md).
 */
export class SignalIngest {
  private queue: { chunks: FrameChunk[]; decode: boolean }[] = [];
  private running: Promise<void> | null = null;
  private demand: DemandSource | null = null;
  private prefetchDemand: DemandPrefetch | null = null;
  dropped = 0;
  /** The "behind" line: once per 10 s, with the count, not a line per group commit. */
  private readonly behind = new LogThrottle();

  constructor(private readonly deps: IngestDeps) {}

  /** Frames to decode besides the stored signals (the rule engine's), by device. */
  demandFrom(source: DemandSource | null, prefetch: DemandPrefetch | null = null): void {
    this.demand = source;
    this.prefetchDemand = source ? prefetch : null;
  }

  /** Committed raw chunks (chunk writer `committed` event). */
  onChunks(chunks: FrameChunk[]): void {
    const decode = this.queue.length < MAX_QUEUE;
    if (!decode) {
      this.dropped += chunks.length;
      if (this.behind.due()) this.deps.log.warn({ dropped: this.dropped }, 'signal decoding is behind: batches not decoded');
      if (this.queue.length >= MAX_PASS_ON || !this.deps.events.listenerCount('signals.frames')) return;
    }
    this.queue.push({ chunks, decode });
    this.running ??= this.drain();
  }

  /** Waits until every queued group is stored (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain() {
    try {
      while (this.queue.length) {
        const { chunks, decode } = this.queue.shift() as { chunks: FrameChunk[]; decode: boolean };
        const byDevice = new Map<string, FrameChunk[]>();
        for (const c of chunks) byDevice.get(c.thingsId)?.push(c) ?? byDevice.set(c.thingsId, [c]);
        if (decode && byDevice.size > 1) await this.prefetch([...byDevice.values()].map((l) => l[0]));
        for (const list of byDevice.values()) await this.decodeGroup(list, decode);
      }
    } finally {
      this.running = null;
    }
  }

  /** Bindings and rule demand of a group's devices, read in bulk before the group is decoded device by device. */
  private async prefetch(devices: { tenantId: string; thingsId: string }[]): Promise<void> {
    try {
      await this.deps.cache.prefetch(devices);
      if (this.prefetchDemand && this.deps.events.listenerCount('signals.frames') > 0) await this.prefetchDemand(devices);
    } catch (err) {
      // Each device then reads its own, as before.
      this.deps.log.error({ err }, 'decode plans not read');
    }
  }

  /**
   * One device's chunks of a committed group: decoded once, published (`signals.frames`), samples
   * stored. Behind (`decode` false): published undecoded only.
   */
  private async decodeGroup(list: FrameChunk[], decode: boolean): Promise<void> {
    const { tenantId, thingsId } = list[0];
    const { cache, events, log } = this.deps;
    const publish = events.listenerCount('signals.frames') > 0;
    if (!decode) {
      if (publish) events.emit('signals.frames', { tenantId, thingsId, chunks: list, rows: list.map(() => new Map()) });
      return;
    }
    let plans = new Map<number, ChannelPlan>();
    let demand: FrameDemand | null = null;
    try {
      plans = await cache.plansFor(tenantId, thingsId);
      if (publish && this.demand) demand = await this.demand(tenantId, thingsId);
    } catch (err) {
      // The group still goes out: a rule then decodes what it needs itself.
      log.error({ err, thingsId }, 'decode plans not read');
    }
    const rows = list.map(() => new Map<number, DecodedRow>());
    let slot = rows[0];
    let at = 0;
    const accs =
      plans.size || demand?.size
        ? decodeFrames(
            plans,
            (visit) => {
              list.forEach((c, k) => {
                slot = rows[k];
                let i = -1;
                forEachFrame(c.data, null, (ts, ch, id, fl, _len, data) => {
                  i++;
                  if (!(fl & (FLAG_RTR | FLAG_ERR))) {
                    at = i;
                    visit(ts, ch, id, (fl & FLAG_EXT) !== 0, data);
                  }
                  return true;
                });
              });
            },
            demand,
            (r) => slot.set(at, r),
          )
        : [];
    if (publish) events.emit('signals.frames', { tenantId, thingsId, chunks: list, rows });
    if (!accs.length) return;
    await this.write(tenantId, thingsId, accs, undefined).catch((err) => log.error({ err, thingsId }, 'decoded signals not stored'));
  }

  /** Frames from another path (a log import, a test): decoded and stored now. */
  async onFrames(tenantId: string, thingsId: string, frames: readonly CanFrame[]): Promise<number> {
    return this.store(tenantId, thingsId, (visit) => {
      for (const f of frames) if (!f.rtr && !f.err) visit(f.ts, f.channel, f.id, f.ext, f.data);
    });
  }

  /** Stored frames of one channel (back-fill): decoded with that channel's started binding only. */
  async decodeChannel(
    tenantId: string,
    thingsId: string,
    channel: number,
    each: (visit: (ts: number, channel: number, id: number, ext: boolean, data: Uint8Array) => void) => void,
  ): Promise<number> {
    return this.store(tenantId, thingsId, each, channel);
  }

  private async store(
    tenantId: string,
    thingsId: string,
    each: (visit: (ts: number, channel: number, id: number, ext: boolean, data: Uint8Array) => void) => void,
    only?: number,
  ): Promise<number> {
    const all = await this.deps.cache.plansFor(tenantId, thingsId);
    const one = only === undefined ? null : all.get(only);
    const plans = only === undefined ? all : one ? new Map([[only, one]]) : new Map<number, ChannelPlan>();
    if (!plans.size) return 0;
    const accs = decodeFrames(plans, each);
    if (!accs.length) return 0;
    return this.write(tenantId, thingsId, accs, only);
  }

  /** Stores decoded samples, counts their bytes, and tells live listeners (`signals.decoded`). */
  private async write(tenantId: string, thingsId: string, accs: Accumulator[], only: number | undefined): Promise<number> {
    const { repo, cache, raw, events, usage } = this.deps;
    const plansOf = async () => {
      const all = await cache.plansFor(tenantId, thingsId);
      if (only === undefined) return all;
      const p = all.get(only);
      return p ? new Map([[only, p]]) : new Map<number, ChannelPlan>();
    };
    const write = async () => {
      const ids = await repo.ensureSeries(
        tenantId,
        thingsId,
        accs.map((a) => ({ channel: a.channel, message: a.message, signal: a.signal, unit: a.unit })),
      );
      const batches: SeriesSamples[] = accs.map((a, i) => ({
        seriesId: ids[i],
        ts: a.ts,
        values: a.values,
        n: a.n,
        factor: a.factor,
        offset: a.offset,
      }));
      return writeSamples(
        raw,
        batches.filter((b) => b.seriesId > 0),
      );
    };
    let result: Awaited<ReturnType<typeof write>>;
    try {
      result = await write();
    } catch (e) {
      // The channel was unbound between reading the plan and writing: read the bindings again once.
      if ((e as { code?: string }).code !== '23503') throw e;
      cache.invalidate(thingsId);
      if (!(await plansOf()).size) return 0;
      result = await write();
    }
    let bytes = 0;
    for (const b of result.bytes.values()) bytes += b;
    if (bytes && usage) await usage.add(tenantId, thingsId, bytes);
    // Back-filled (old) samples are not news for real-time curves.
    if (only === undefined && events.listenerCount('signals.decoded')) {
      const ev: DecodedBatch = {
        tenantId,
        thingsId,
        series: accs.map((a) => ({
          channel: a.channel,
          message: a.message,
          signal: a.signal,
          unit: a.unit,
          ts: a.ts.slice(0, a.n),
          values: a.values.slice(0, a.n),
        })),
      };
      events.emit('signals.decoded', ev);
    }
    return result.samples;
  }
}
