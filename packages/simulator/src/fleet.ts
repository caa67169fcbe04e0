import type { CanFrame } from '@loggerhead/can';
import { encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { LoggerDevice } from './logger-device.ts';

export interface FleetOptions {
  broker: string;
  /** Credentials per device; with one entry, all connections share it (client ids get `-n`). */
  devices: { deviceId: string; key: string }[];
  count: number;
  /** Frames per second per device. */
  rate: number;
  /** Seconds to run. */
  duration: number;
  /** Batches per second per device (default 10). */
  batchesPerSecond?: number;
  window?: number;
  protocolVersion?: 4 | 5;
  /** Send as fast as acknowledgements allow instead of pacing at `rate` (load tests). */
  flat?: boolean;
  signal?: AbortSignal;
}

export interface FleetResult {
  devices: number;
  batches: number;
  frames: number;
  bytes: number;
  seconds: number;
}

/** Synthetic traffic: 8-byte frames on two channels with a handful of ids, like an engine bus. */
export function syntheticFrames(n: number, t0: number, stepUs: number, seed = 0): CanFrame[] {
  const out: CanFrame[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const k = i + seed;
    out[i] = {
      ts: t0 + Math.floor(i * stepUs),
      channel: k & 1,
      id: 0x100 + ((k * 7) % 64),
      ext: false,
      fd: false,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data: new Uint8Array([k & 0xff, (k >> 8) & 0xff, (k >> 16) & 0xff, 0x11, 0x22, 0x33, 0x44, 0x55]),
    };
  }
  return out;
}

/** Runs N simulated loggers at R frames/s each; resolves when all is sent and acknowledged. */
export async function runFleet(o: FleetOptions): Promise<FleetResult> {
  const bps = o.batchesPerSecond ?? 10;
  const perBatch = Math.max(1, Math.round(o.rate / bps));
  const devices = Array.from({ length: o.count }, (_, i) => {
    const cred = o.devices[i % o.devices.length];
    const shared = o.devices.length < o.count;
    return new LoggerDevice({
      broker: o.broker,
      deviceId: cred.deviceId,
      key: cred.key,
      clientId: shared ? `${cred.deviceId}-${i}` : cred.deviceId,
      window: o.window ?? 8,
      protocolVersion: o.protocolVersion,
    });
  });
  await Promise.all(devices.map((d) => d.connect()));
  // Each device cycles through a few pre-encoded batches (times relative to t0 = 0).
  const templates = Array.from({ length: 4 }, (_, k) =>
    encodeBatch(syntheticFrames(perBatch, 0, 1e6 / o.rate, k * perBatch), { session: 0, seq: 0 }),
  );
  const spanUs = Math.ceil((perBatch * 1e6) / o.rate);
  const started = performance.now();
  const end = started + o.duration * 1000;
  await Promise.all(
    devices.map(async (d, i) => {
      let t = Date.now() * 1000 + i;
      for (let b = 0; performance.now() < end && !o.signal?.aborted; b++) {
        if (!o.flat) {
          const due = started + (b * 1000) / bps;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        await d.sendTemplate(templates[b % templates.length], t, perBatch);
        t += spanUs;
      }
      await d.drain();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const r = devices.reduce(
    (acc, d) => ({ batches: acc.batches + d.acked.batches, frames: acc.frames + d.acked.frames, bytes: acc.bytes + d.sent.bytes }),
    { batches: 0, frames: 0, bytes: 0 },
  );
  await Promise.all(devices.map((d) => d.close()));
  return { devices: o.count, ...r, seconds };
}
