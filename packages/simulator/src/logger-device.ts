import { randomInt } from 'node:crypto';
import type { CanFrame } from '@loggerhead/can';
import { encodeBatch, planBatches } from '@loggerhead/can/protocol/batch.ts';
import { downFilter, upTopic } from '@loggerhead/can/protocol/topics.ts';
import mqtt, { type MqttClient } from 'mqtt';

export interface DeviceOptions {
  broker: string;
  deviceId: string;
  key: string;
  /** Defaults to the device ID; a suffix `-n` lets several connections share one device's credentials. */
  clientId?: string;
  protocolVersion?: 4 | 5;
  /** Batches in flight before waiting for PUBACKs. */
  window?: number;
  firmware?: string;
  channels?: number;
  /** First wait before reconnecting; it doubles after each failed attempt (default 1000 ms). */
  reconnectMs?: number;
  /** Longest wait between reconnect attempts (default 30 000 ms). */
  reconnectMaxMs?: number;
  /** How long `connect()` keeps trying before it gives up (default 10 000 ms); refused credentials fail at once. */
  connectTimeoutMs?: number;
  /** Where each PUBACK's round trip (ms from PUBLISH to PUBACK) of a frame batch is recorded. */
  ackLatencies?: number[];
}

/** CONNACK codes that no retry can cure: bad credentials, a banned or invalid client (3.1.1 and MQTT 5). */
const FATAL_CONNACK = new Set([1, 2, 4, 5, 0x80, 0x81, 0x82, 0x84, 0x85, 0x86, 0x87, 0x8a, 0x8c]);

function isRefusal(e: Error): boolean {
  const code = (e as Error & { code?: unknown }).code;
  return typeof code === 'number' && FATAL_CONNACK.has(code) && e.message.startsWith('Connection refused');
}

/**
 * A simulated logger: connects with its ID and key exactly like a device, announces its status
 * (with a will that says offline), sends frame batches with QoS 1 under a send window, and
 * counts what the cloud acknowledged.
 *
 * Like a logger, it rides out a broker restart: it reconnects with a growing back-off (1 s doubling
 * up to 30 s, with jitter so that a fleet does not reconnect in one burst), announces itself again,
 * and re-sends every batch not acknowledged yet with the same bytes (mqtt.js keeps QoS 1 packets in
 * its outgoing store until their PUBACK; the cloud stores a re-sent batch once). Errors on the
 * connection are counted, never thrown; only refused credentials end it for good.
 */
export class LoggerDevice {
  client: MqttClient | null = null;
  readonly session = randomInt(0x7fffffff);
  private seq = 0;
  private inflight = 0;
  private waiters: (() => void)[] = [];
  sent = { batches: 0, frames: 0, bytes: 0 };
  acked = { batches: 0, frames: 0 };
  /** Connections made (1 after `connect()`, +1 per reconnect) and connection errors seen. */
  connections = 0;
  errors = 0;
  lastError: Error | null = null;
  /** Set when the broker refused the credentials: sends and `drain()` then fail instead of waiting. */
  fatal: Error | null = null;
  readonly commands: { topic: string; payload: Buffer }[] = [];
  /** Called for every downlink (commands, config…): see commands.ts for the remote-operations agent. */
  readonly downlinkHandlers: ((topic: string, payload: Buffer) => void)[] = [];

  constructor(readonly opts: DeviceOptions) {}

  async connect(): Promise<void> {
    const o = this.opts;
    const base = o.reconnectMs ?? 1000;
    const max = Math.max(base, o.reconnectMaxMs ?? 30_000);
    const c = mqtt.connect(o.broker, {
      clientId: o.clientId ?? o.deviceId,
      username: o.deviceId,
      password: o.key,
      protocolVersion: o.protocolVersion ?? 4,
      clean: false,
      ...(o.protocolVersion === 5 ? { properties: { sessionExpiryInterval: 3600 } } : {}),
      reconnectPeriod: base,
      // A broker that is up but busy (server unavailable) is retried too; refused credentials are not (below).
      reconnectOnConnackError: true,
      connectTimeout: Math.min(10_000, o.connectTimeoutMs ?? 10_000),
      will: { topic: upTopic(o.deviceId, 'status'), payload: Buffer.from('{"online":false}'), qos: 1, retain: false },
    });
    this.client = c;
    let attempts = 0;
    // mqtt.js retries on a fixed timer; a logger backs off. The timer is re-armed with the next
    // period just before each attempt, so a failed one waits longer (mqtt.js has no option for it).
    c.on('reconnect', () => {
      attempts++;
      const next = Math.round(Math.min(max, base * 2 ** Math.min(attempts, 16)) * (0.75 + Math.random() * 0.5));
      const timer = c as unknown as { reconnectTimer: ReturnType<typeof setInterval> | null };
      if (timer.reconnectTimer) clearInterval(timer.reconnectTimer);
      timer.reconnectTimer = null;
      c.options.reconnectPeriod = next;
    });
    c.on('error', (e) => {
      this.errors++;
      this.lastError = e;
      if (isRefusal(e)) this.fail(e);
    });
    c.on('connect', () => {
      attempts = 0;
      c.options.reconnectPeriod = base;
      this.connections++;
      // Announced again after each reconnect, as a logger does; the first one is awaited below.
      if (this.connections > 1) c.publish(upTopic(o.deviceId, 'status'), this.status(), { qos: 1 }, () => {});
    });
    c.on('message', (topic, payload) => {
      this.commands.push({ topic, payload });
      for (const h of this.downlinkHandlers) h(topic, payload);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const e = this.lastError ?? new Error(`no connection to ${o.broker} within ${o.connectTimeoutMs ?? 10_000} ms`);
        this.fail(e);
        reject(e);
      }, o.connectTimeoutMs ?? 10_000);
      const done = (e?: Error) => {
        clearTimeout(timer);
        c.off('connect', ok);
        c.off('error', bad);
        if (e) reject(e);
        else resolve();
      };
      const ok = () => done();
      const bad = (e: Error) => {
        if (isRefusal(e)) done(e);
      };
      c.on('connect', ok);
      c.on('error', bad);
    });
    await c.subscribeAsync(downFilter(o.deviceId), { qos: 1 });
    await c.publishAsync(upTopic(o.deviceId, 'status'), this.status(), { qos: 1 });
  }

  private status(): string {
    const o = this.opts;
    return JSON.stringify({
      online: true,
      firmware: o.firmware ?? 'sim-1.0.0',
      sd: { state: 'ok' },
      channel_enable: (1 << (o.channels ?? 2)) - 1,
    });
  }

  /** Gives up for good (refused credentials): the client stops and whoever waits is released. */
  private fail(e: Error): void {
    this.fatal ??= e;
    this.client?.end(true);
    for (const w of this.waiters.splice(0)) w();
  }

  private async room(): Promise<MqttClient> {
    const c = this.client;
    if (!c) throw new Error('not connected');
    while (!this.fatal && this.inflight >= (this.opts.window ?? 16)) await new Promise<void>((r) => this.waiters.push(r));
    if (this.fatal) throw this.fatal;
    return c;
  }

  /** Sends one batch of time-sorted frames; resolves once it is queued (not acknowledged). */
  async sendBatch(frames: readonly CanFrame[]): Promise<void> {
    const c = await this.room();
    const data = encodeBatch(frames, { session: this.session, seq: this.seq++ });
    this.inflight++;
    this.sent.batches++;
    this.sent.frames += frames.length;
    this.sent.bytes += data.byteLength;
    c.publish(upTopic(this.opts.deviceId, 'frames'), Buffer.from(data.buffer, data.byteOffset, data.byteLength), { qos: 1 }, (err) => {
      this.inflight--;
      if (!err) {
        this.acked.batches++;
        this.acked.frames += frames.length;
      }
      this.waiters.shift()?.();
    });
  }

  /**
   * Sends a copy of an encoded batch with this device's session, the next seq and a new t0 —
   * what a logger's firmware does in a few memory copies, so a load test measures the cloud,
   * not the simulator's encoder.
   */
  async sendTemplate(template: Uint8Array, t0: number, frames: number): Promise<void> {
    const c = await this.room();
    const data = Buffer.from(template);
    data.writeUInt32LE(this.session >>> 0, 8);
    data.writeUInt32LE(this.seq++ >>> 0, 12);
    data.writeUInt32LE(t0 % 0x1_0000_0000, 16);
    data.writeUInt32LE(Math.floor(t0 / 0x1_0000_0000), 20);
    this.inflight++;
    this.sent.batches++;
    this.sent.frames += frames;
    this.sent.bytes += data.byteLength;
    const sentAt = performance.now();
    c.publish(upTopic(this.opts.deviceId, 'frames'), data, { qos: 1 }, (err) => {
      this.inflight--;
      if (!err) {
        this.acked.batches++;
        this.acked.frames += frames;
        this.opts.ackLatencies?.push(performance.now() - sentAt);
      }
      this.waiters.shift()?.();
    });
  }

  /** Resolves when every batch sent so far is acknowledged (throws once the credentials were refused). */
  async drain(): Promise<void> {
    while (!this.fatal && this.inflight > 0) await new Promise<void>((r) => this.waiters.push(r));
    if (this.fatal && this.inflight > 0) throw this.fatal;
  }

  async close(): Promise<void> {
    const c = this.client;
    if (!c) return;
    // A client between reconnects has nobody to say goodbye to.
    await c.endAsync(!c.connected);
  }
}

export interface ReplayOptions {
  /** Pace by the log's own timing (default: as fast as acknowledgements allow). */
  realtime?: boolean;
  /** Paced replay: every this many ms, send the frames that have come due (default 200, see docs/device-protocol.md). */
  batchMs?: number;
  loop?: boolean;
  /**
   * Keep the log's timestamps. Otherwise a paced or looping replay starts at now, and a one-off
   * fast replay ends at now — a recorded log uploaded after the fact, no frame from the future.
   */
  keepTime?: boolean;
  maxBatchBytes?: number;
  /** Stop a looping replay. */
  signal?: AbortSignal;
  onProgress?: (d: LoggerDevice) => void;
}

/** Replays a log's frames through a device; resolves when everything sent is acknowledged. */
export async function replay(device: LoggerDevice, frames: readonly CanFrame[], o: ReplayOptions = {}): Promise<void> {
  if (!frames.length) return;
  const sorted = [...frames].sort((a, b) => a.ts - b.ts);
  const span = sorted[sorted.length - 1].ts - sorted[0].ts + 1000;
  const maxBytes = o.maxBatchBytes ?? 256 * 1024;
  const anchor = o.realtime || o.loop ? sorted[0].ts : sorted[sorted.length - 1].ts;
  let shift = o.keepTime ? 0 : Date.now() * 1000 - anchor;
  const send = async (s: number, e: number) => {
    // Cut by size and span as a logger's buffer would be; a paced tick usually fits one batch.
    for (const [a, b] of planBatches(sorted.slice(s, e), maxBytes)) {
      const batch = shift ? sorted.slice(s + a, s + b).map((f) => ({ ...f, ts: Math.round(f.ts + shift) })) : sorted.slice(s + a, s + b);
      await device.sendBatch(batch);
      o.onProgress?.(device);
    }
  };
  const tick = o.batchMs ?? 200;
  const started = performance.now();
  for (let round = 0; ; round++) {
    if (!o.realtime) {
      for (const [s, e] of planBatches(sorted, maxBytes)) {
        if (o.signal?.aborted) return device.drain();
        await send(s, e);
      }
    } else {
      // What a logger does: every tick, send what was recorded since the last one. A frame is
      // on its way at most one tick after its time; a quiet stretch sends nothing.
      const due = (i: number) => (sorted[i].ts - sorted[0].ts + round * span) / 1000;
      let i = 0;
      while (i < sorted.length) {
        if (o.signal?.aborted) return device.drain();
        const now = performance.now() - started;
        let j = i;
        while (j < sorted.length && due(j) <= now) j++;
        if (j > i) {
          await send(i, j);
          i = j;
          if (i >= sorted.length) break;
        }
        const wait = Math.max(due(i), now + tick) - (performance.now() - started);
        if (wait > 0) await sleep(wait, o.signal);
      }
    }
    if (!o.loop) break;
    shift += span;
  }
  await device.drain();
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
