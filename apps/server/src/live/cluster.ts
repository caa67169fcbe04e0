import { randomBytes } from 'node:crypto';
import { checkBatch } from '@loggerhead/can/protocol/batch.ts';
import mqtt, { type MqttClient } from 'mqtt';
import { z } from 'zod';
import type { CommittedChunks, FrameChunk } from '../ingest/chunk-writer.ts';
import type { AppEventName, AppEvents, EventBus } from '../lib/events.ts';
import type { DecodedBatch } from '../modules/signals/signals.events.ts';
import type { LiveHub } from './live-hub.ts';

/** Topics of the server copies among themselves; a broker's ACL must keep devices out of them. */
export const CLUSTER_ROOT = 'loggerhead/cluster';

const FRAMES = 0x66; // 'f': a committed frame chunk, as stored
const SIGNALS = 0x73; // 's': decoded samples of one batch group, JSON
const COPY_ID_BYTES = 16;

interface Log {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
}

export interface ClusterOptions {
  /** The external broker (`MQTT_URL`). */
  url: string;
  /** Copies of one deployment share it (derived from their shared database). */
  deployment: string;
  hub: LiveHub;
  events: EventBus;
  writer: CommittedChunks;
  log: Log;
}

const WatchList = z.object({ f: z.array(z.string()), s: z.array(z.string()) });
const Signals = z.object({
  tenantId: z.string(),
  series: z.array(
    z.object({
      channel: z.number(),
      message: z.string(),
      signal: z.string(),
      unit: z.string(),
      ts: z.array(z.number()),
      // Non-finite values travel as null.
      values: z.array(z.number().nullable()),
    }),
  ),
});
const Relayed = z.object({ from: z.string(), event: z.string(), payload: z.record(z.string(), z.unknown()) });

/**
 * Live views across several server copies on an external broker. Each copy has a random id and one
 * MQTT connection of its own (clean session, QoS 0 for live data), beside the ingest connections:
 *
 * - `{root}/watch/{copy}` (retained, cleared by the connection's will): the devices whose frames and
 *   decoded signals the browsers of that copy watch. A copy that commits a batch of a device watched
 *   elsewhere publishes it to `{root}/live/{thingsId}`, so unwatched devices cost nothing.
 * - `{root}/live/{thingsId}`: subscribed while a browser of this copy watches the device; messages
 *   of this copy itself are ignored (its hub was fed locally).
 * - `{root}/events`: events with push listeners (message bell, remote operations) emitted here are
 *   relayed; those of other copies reach only the push listeners (`EventBus.emitRemote`).
 *
 * `{root}` is `loggerhead/cluster/{deployment}`. A malformed message is dropped (logged once).
 */
export class Cluster {
  readonly copyId = randomBytes(COPY_ID_BYTES / 2).toString('hex');
  readonly root: string;
  private client: MqttClient | null = null;
  private readonly liveRoot: string;
  private readonly watchRoot: string;
  private readonly eventsTopic: string;
  private readonly header: Record<number, Buffer>;
  /** Devices whose live topic this copy subscribes to. */
  private subscribed = new Set<string>();
  /** What each other copy watches, and the union of it. */
  private remote = new Map<string, { f: Set<string>; s: Set<string> }>();
  private remoteFrames = new Set<string>();
  private remoteSignals = new Set<string>();
  private signalsOff: (() => void) | null = null;
  private syncing: Promise<void> = Promise.resolve();
  private syncQueued = false;
  private malformedLogged = false;
  readonly stats = { published: 0, received: 0, malformed: 0 };

  constructor(private readonly o: ClusterOptions) {
    this.root = `${CLUSTER_ROOT}/${o.deployment}`;
    this.liveRoot = `${this.root}/live/`;
    this.watchRoot = `${this.root}/watch/`;
    this.eventsTopic = `${this.root}/events`;
    const id = Buffer.from(this.copyId, 'latin1');
    this.header = {
      [FRAMES]: Buffer.concat([Buffer.from([FRAMES]), id]),
      [SIGNALS]: Buffer.concat([Buffer.from([SIGNALS]), id]),
    };
  }

  liveTopic(thingsId: string) {
    return `${this.liveRoot}${thingsId}`;
  }

  /** Whether another copy watches the device's frames and its decoded signals. */
  watchedElsewhere(thingsId: string): { frames: boolean; signals: boolean } {
    return { frames: this.remoteFrames.has(thingsId), signals: this.remoteSignals.has(thingsId) };
  }

  isUp(): boolean {
    return this.client?.connected ?? false;
  }

  async start(): Promise<void> {
    const c = mqtt.connect(this.o.url, {
      clientId: `lh-${this.o.deployment}-live-${this.copyId}`,
      // Plain publish and subscribe only: any broker version does.
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 1000,
      // Live data is of the moment: nothing is kept for a broker that is away.
      queueQoSZero: false,
      will: { topic: `${this.watchRoot}${this.copyId}`, payload: Buffer.alloc(0), qos: 1, retain: true },
    });
    c.on('error', (err) => this.o.log.warn({ err }, 'cluster connection error'));
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        c.end(true);
        reject(new Error(`MQTT_URL: no answer from ${new URL(this.o.url).host} within 10 s`));
      }, 10_000);
      c.once('connect', () => {
        clearTimeout(t);
        resolve();
      });
    });
    this.client = c;
    c.on('message', (topic, payload) => this.receive(topic, payload));
    c.on('connect', () => {
      // A reconnect: our will cleared our watch list, so announce it again; the other copies' lists
      // come again with the renewed subscription (those of copies gone meanwhile do not).
      this.remote.clear();
      this.remoteChanged();
      this.scheduleSync();
    });
    await c.subscribeAsync({ [this.eventsTopic]: { qos: 0 }, [`${this.watchRoot}+`]: { qos: 1 } });
    this.o.hub.onWatchChange = () => this.scheduleSync();
    this.o.writer.on('committed', this.onCommitted);
    this.o.events.relayTo(this.relay);
    this.scheduleSync();
    this.o.log.info({ copy: this.copyId, root: this.root }, 'live views fanned out between server copies');
  }

  async close(): Promise<void> {
    this.o.hub.onWatchChange = null;
    this.o.writer.off('committed', this.onCommitted);
    this.o.events.relayTo(null);
    this.signalsOff?.();
    this.signalsOff = null;
    const c = this.client;
    this.client = null;
    if (!c) return;
    if (c.connected) {
      // A clean stop sends no will: clear our watch list ourselves.
      await c.publishAsync(`${this.watchRoot}${this.copyId}`, Buffer.alloc(0), { qos: 1, retain: true }).catch(() => {});
      await c.endAsync();
    } else {
      await c.endAsync(true);
    }
  }

  private scheduleSync() {
    if (this.syncQueued) return;
    this.syncQueued = true;
    this.syncing = this.syncing
      .then(() => {
        this.syncQueued = false;
        return this.sync();
      })
      .catch((err) => this.o.log.warn({ err }, 'cluster subscription update failed'));
  }

  /** Subscribes to the live topics of the devices watched here, then announces them. */
  private async sync() {
    const c = this.client;
    if (!c) return;
    const { frames, signals } = this.o.hub.watched();
    const want = new Set([...frames, ...signals]);
    const add = [...want].filter((id) => !this.subscribed.has(id));
    const drop = [...this.subscribed].filter((id) => !want.has(id));
    if (add.length) {
      await c.subscribeAsync(
        add.map((id) => this.liveTopic(id)),
        { qos: 0 },
      );
      for (const id of add) this.subscribed.add(id);
    }
    const list = want.size ? JSON.stringify({ f: frames, s: signals }) : '';
    await c.publishAsync(`${this.watchRoot}${this.copyId}`, list, { qos: 1, retain: true });
    if (drop.length) {
      for (const id of drop) this.subscribed.delete(id);
      await c.unsubscribeAsync(drop.map((id) => this.liveTopic(id)));
    }
  }

  private publish(topic: string, payload: Buffer | string) {
    const c = this.client;
    if (!c?.connected) return;
    this.stats.published++;
    c.publish(topic, payload, { qos: 0 }, () => {});
  }

  private readonly onCommitted = (chunks: FrameChunk[]) => {
    if (!this.remoteFrames.size) return;
    for (const ch of chunks) {
      if (this.remoteFrames.has(ch.thingsId)) this.publish(this.liveTopic(ch.thingsId), Buffer.concat([this.header[FRAMES], ch.data]));
    }
  };

  private readonly onDecoded = (e: DecodedBatch) => {
    if (!this.remoteSignals.has(e.thingsId)) return;
    const body = JSON.stringify({
      tenantId: e.tenantId,
      series: e.series.map((x) => ({
        channel: x.channel,
        message: x.message,
        signal: x.signal,
        unit: x.unit,
        ts: Array.from(x.ts),
        values: Array.from(x.values),
      })),
    });
    this.publish(this.liveTopic(e.thingsId), Buffer.concat([this.header[SIGNALS], Buffer.from(body)]));
  };

  private readonly relay = <K extends AppEventName>(event: K, payload: AppEvents[K]) => {
    let body: string;
    try {
      body = JSON.stringify({ from: this.copyId, event, payload });
    } catch (err) {
      this.o.log.warn({ err, event }, 'event not relayed to the other server copies');
      return;
    }
    this.publish(this.eventsTopic, body);
  };

  private receive(topic: string, payload: Buffer) {
    try {
      this.stats.received++;
      if (topic.startsWith(this.liveRoot)) this.receiveLive(topic.slice(this.liveRoot.length), payload);
      else if (topic === this.eventsTopic) this.receiveEvent(payload);
      else if (topic.startsWith(this.watchRoot)) this.receiveWatch(topic.slice(this.watchRoot.length), payload);
    } catch (err) {
      this.malformed(topic, err instanceof Error ? err.message : String(err));
    }
  }

  private receiveLive(thingsId: string, payload: Buffer) {
    if (payload.length < 1 + COPY_ID_BYTES) return this.malformed(this.liveTopic(thingsId), 'too short');
    if (payload.toString('latin1', 1, 1 + COPY_ID_BYTES) === this.copyId) return;
    const body = payload.subarray(1 + COPY_ID_BYTES);
    if (payload[0] === FRAMES) {
      if (!this.o.hub.watching(thingsId)) return;
      const info = checkBatch(body);
      if (typeof info === 'string') return this.malformed(this.liveTopic(thingsId), info);
      this.o.hub.publishChunk(thingsId, body);
    } else if (payload[0] === SIGNALS) {
      if (!this.o.hub.watchingSignals(thingsId)) return;
      const m = Signals.safeParse(JSON.parse(body.toString('utf8')));
      if (!m.success) return this.malformed(this.liveTopic(thingsId), 'bad signals');
      this.o.hub.publishSignals({
        tenantId: m.data.tenantId,
        thingsId,
        series: m.data.series.map((x) => ({
          ...x,
          ts: Float64Array.from(x.ts),
          values: Float64Array.from(x.values, (v) => v ?? Number.NaN),
        })),
      });
    } else {
      this.malformed(this.liveTopic(thingsId), 'unknown kind');
    }
  }

  private receiveEvent(payload: Buffer) {
    const m = Relayed.safeParse(JSON.parse(payload.toString('utf8')));
    if (!m.success) return this.malformed(this.eventsTopic, 'bad event');
    if (m.data.from === this.copyId) return;
    // An event this version pushes to nobody (a newer copy during an upgrade): not ours to show.
    if (!this.o.events.isPushed(m.data.event)) return;
    this.o.events.emitRemote(m.data.event, m.data.payload as never);
  }

  private receiveWatch(copy: string, payload: Buffer) {
    if (copy === this.copyId) return;
    if (!payload.length) {
      this.remote.delete(copy);
    } else {
      const m = WatchList.safeParse(JSON.parse(payload.toString('utf8')));
      if (!m.success) return this.malformed(`${this.watchRoot}${copy}`, 'bad watch list');
      this.remote.set(copy, { f: new Set(m.data.f), s: new Set(m.data.s) });
    }
    this.remoteChanged();
  }

  private remoteChanged() {
    this.remoteFrames = new Set([...this.remote.values()].flatMap((r) => [...r.f]));
    this.remoteSignals = new Set([...this.remote.values()].flatMap((r) => [...r.s]));
    // Decoded samples are produced only while someone listens: listen while another copy watches.
    if (this.remoteSignals.size && !this.signalsOff) this.signalsOff = this.o.events.on('signals.decoded', this.onDecoded);
    else if (!this.remoteSignals.size && this.signalsOff) {
      this.signalsOff();
      this.signalsOff = null;
    }
  }

  private malformed(topic: string, reason: string) {
    this.stats.malformed++;
    if (this.malformedLogged) return;
    this.malformedLogged = true;
    this.o.log.warn({ topic, reason }, 'malformed cluster message ignored (further ones are not logged)');
  }
}
