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
}

/**
 * A simulated logger: connects with its ID and key exactly like a device, announces its status
 * (with a will that says offline), sends frame batches with QoS 1 under a send window, and
 * counts what the cloud acknowledged. Re-sends after a reconnect are mqtt.js's QoS 1 store.
 */
export class LoggerDevice {
  client: MqttClient | null = null;
  readonly session = randomInt(0x7fffffff);
  private seq = 0;
  private inflight = 0;
  private waiters: (() => void)[] = [];
  sent = { batches: 0, frames: 0, bytes: 0 };
  acked = { batches: 0, frames: 0 };
  readonly commands: { topic: string; payload: Buffer }[] = [];
  /** Called for every downlink (commands, config…): see commands.ts for the remote-operations agent. */
  readonly downlinkHandlers: ((topic: string, payload: Buffer) => void)[] = [];

  constructor(readonly opts: DeviceOptions) {}

  async connect(): Promise<void> {
    const o = this.opts;
    const c = mqtt.connect(o.broker, {
      clientId: o.clientId ?? o.deviceId,
      username: o.deviceId,
      password: o.key,
      protocolVersion: o.protocolVersion ?? 4,
      clean: false,
      ...(o.protocolVersion === 5 ? { properties: { sessionExpiryInterval: 3600 } } : {}),
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      will: { topic: upTopic(o.deviceId, 'status'), payload: Buffer.from('{"online":false}'), qos: 1, retain: false },
    });
    this.client = c;
    await new Promise<void>((resolve, reject) => {
      c.once('connect', () => resolve());
      c.once('error', (e) => {
        c.end(true);
        reject(e);
      });
    });
    c.on('message', (topic, payload) => {
      this.commands.push({ topic, payload });
      for (const h of this.downlinkHandlers) h(topic, payload);
    });
    await c.subscribeAsync(downFilter(o.deviceId), { qos: 1 });
    await c.publishAsync(
      upTopic(o.deviceId, 'status'),
      JSON.stringify({
        online: true,
        firmware: o.firmware ?? 'sim-1.0.0',
        sd: { state: 'ok' },
        channel_enable: (1 << (o.channels ?? 2)) - 1,
      }),
      { qos: 1 },
    );
  }

  /** Sends one batch of time-sorted frames; resolves once it is queued (not acknowledged). */
  async sendBatch(frames: readonly CanFrame[]): Promise<void> {
    const c = this.client;
    if (!c) throw new Error('not connected');
    while (this.inflight >= (this.opts.window ?? 16)) await new Promise<void>((r) => this.waiters.push(r));
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
    const c = this.client;
    if (!c) throw new Error('not connected');
    while (this.inflight >= (this.opts.window ?? 16)) await new Promise<void>((r) => this.waiters.push(r));
    const data = Buffer.from(template);
    data.writeUInt32LE(this.session >>> 0, 8);
    data.writeUInt32LE(this.seq++ >>> 0, 12);
    data.writeUInt32LE(t0 % 0x1_0000_0000, 16);
    data.writeUInt32LE(Math.floor(t0 / 0x1_0000_0000), 20);
    this.inflight++;
    this.sent.batches++;
    this.sent.frames += frames;
    this.sent.bytes += data.byteLength;
    c.publish(upTopic(this.opts.deviceId, 'frames'), data, { qos: 1 }, (err) => {
      this.inflight--;
      if (!err) {
        this.acked.batches++;
        this.acked.frames += frames;
      }
      this.waiters.shift()?.();
    });
  }

  /** Resolves when every batch sent so far is acknowledged. */
  async drain(): Promise<void> {
    while (this.inflight > 0) await new Promise<void>((r) => this.waiters.push(r));
  }

  async close(): Promise<void> {
    await this.client?.endAsync();
  }
}

export interface ReplayOptions {
  /** Pace batches by the log's own timing (default: as fast as acknowledgements allow). */
  realtime?: boolean;
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
  const plan = planBatches(sorted, o.maxBatchBytes ?? 256 * 1024);
  const anchor = o.realtime || o.loop ? sorted[0].ts : sorted[sorted.length - 1].ts;
  let shift = o.keepTime ? 0 : Date.now() * 1000 - anchor;
  const started = performance.now();
  for (let round = 0; ; round++) {
    for (const [s, e] of plan) {
      if (o.signal?.aborted) return device.drain();
      if (o.realtime) {
        const due = (sorted[e - 1].ts - sorted[0].ts + round * span) / 1000;
        const wait = due - (performance.now() - started);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const batch = shift ? sorted.slice(s, e).map((f) => ({ ...f, ts: Math.round(f.ts + shift) })) : sorted.slice(s, e);
      await device.sendBatch(batch);
      o.onProgress?.(device);
    }
    if (!o.loop) break;
    shift += span;
  }
  await device.drain();
}
