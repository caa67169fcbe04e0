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
  /** How long each device keeps trying to connect before it is counted as failed (default 30 000 ms). */
  connectTimeoutMs?: number;
  /**
   * Connections opened per second (default 500): a fleet comes online over a few seconds, as loggers
   * switched on across a day do. 0 opens them all at once (a server restart: every logger reconnects).
   */
  connectRate?: number;
  /** Connect and stay connected for `duration` seconds without sending (memory per idle connection). */
  idle?: boolean;
  /** Called once every connect has settled, before any batch is sent. */
  onConnected?: (connected: number, failed: number, seconds: number) => void;
}

export interface FleetResult {
  devices: number;
  batches: number;
  frames: number;
  bytes: number;
  seconds: number;
  /** Devices that never connected, and why (error message → devices). */
  failed: number;
  failures: Record<string, number>;
  /** Reconnects after a lost connection, over all devices. */
  reconnects: number;
  /** Seconds from the first connect to the last one settled (connected or given up). */
  connectSeconds: number;
  /** PUBACK round trips of the frame batches, in ms (null when none was acknowledged). */
  ackP50Ms: number | null;
  ackP99Ms: number | null;
}

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
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
  const latencies: number[] = [];
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
      connectTimeoutMs: o.connectTimeoutMs ?? 30_000,
      ackLatencies: latencies,
    });
  });
  // Thousands of connections at once can time out at the broker: connects are spread at
  // `connectRate` a second, each device keeps trying with back-off, and the ones that never make
  // it are counted, not thrown.
  const connectRate = o.connectRate ?? 500;
  const connectStarted = performance.now();
  const settled = await Promise.allSettled(
    devices.map(async (d, i) => {
      const due = connectRate > 0 ? (i * 1000) / connectRate : 0;
      const wait = connectStarted + due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (o.signal?.aborted) throw new Error('stopped before connecting');
      await d.connect();
    }),
  );
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  const failures: Record<string, number> = {};
  const live = devices.filter((_d, i) => {
    const r = settled[i];
    if (r.status === 'fulfilled') return true;
    const why = (r.reason as Error)?.message ?? String(r.reason);
    failures[why] = (failures[why] ?? 0) + 1;
    return false;
  });
  o.onConnected?.(live.length, o.count - live.length, connectSeconds);
  // Each device cycles through a few pre-encoded batches (times relative to t0 = 0).
  const templates = Array.from({ length: 4 }, (_, k) =>
    encodeBatch(syntheticFrames(perBatch, 0, 1e6 / o.rate, k * perBatch), { session: 0, seq: 0 }),
  );
  const spanUs = Math.ceil((perBatch * 1e6) / o.rate);
  const started = performance.now();
  const end = started + o.duration * 1000;
  if (o.idle) {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, o.duration * 1000);
      o.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
  await Promise.all(
    (o.idle ? [] : live).map(async (d, i) => {
      let t = Date.now() * 1000 + i;
      for (let b = 0; performance.now() < end && !o.signal?.aborted; b++) {
        if (!o.flat) {
          const due = started + (b * 1000) / bps;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        try {
          await d.sendTemplate(templates[b % templates.length], t, perBatch);
        } catch {
          return; // refused for good (d.fatal): its acknowledged batches still count
        }
        t += spanUs;
      }
      await d.drain().catch(() => {});
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const r = live.reduce(
    (acc, d) => ({ batches: acc.batches + d.acked.batches, frames: acc.frames + d.acked.frames, bytes: acc.bytes + d.sent.bytes }),
    { batches: 0, frames: 0, bytes: 0 },
  );
  const reconnects = live.reduce((n, d) => n + d.connections - 1, 0);
  await Promise.all(devices.map((d) => d.close().catch(() => {})));
  latencies.sort((a, b) => a - b);
  return {
    devices: o.count,
    ...r,
    seconds,
    failed: o.count - live.length,
    failures,
    reconnects,
    connectSeconds,
    ackP50Ms: percentile(latencies, 50),
    ackP99Ms: percentile(latencies, 99),
  };
}
