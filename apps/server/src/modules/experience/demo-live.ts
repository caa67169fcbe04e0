import type { CanFrame } from '@loggerhead/can';
import type { GpsFix } from '@loggerhead/can/protocol/messages.ts';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { LoggerDevice } from '@loggerhead/simulator/logger-device.ts';
import { type DriveSim, FrameMaker, fixOf, LIVE_RATES } from './demo-drive.ts';
import { GPS_EVERY_MS } from './demo-seed.ts';

export interface LiveDemoOptions {
  /** mqtt://host:port of the embedded broker, once it listens. */
  broker: () => string | null;
  deviceId: string;
  key: () => Promise<string | null>;
  /** The vehicle, standing where its history ends. */
  sim: DriveSim;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
}

/** After a refused or lost connection, wait this long before trying again. */
const RETRY_MS = 15_000;
/** The logger sends what it gathered once a second. */
const SEND_MS = 1000;

/**
 * The experience account's live vehicle: a simulated logger (the simulator's device code) that
 * connects to the embedded broker with the demo device's ID and key, like a real logger, and keeps
 * driving the loop: a frame batch every second, a GPS fix every two. A refused connection or a
 * broker going away is logged and retried; it never stops the server.
 */
export class LiveDemo {
  private device: LoggerDevice | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  sentFrames = 0;

  constructor(private readonly o: LiveDemoOptions) {}

  start() {
    this.loop ??= this.run();
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
      this.timer.unref();
    });
  }

  private async run() {
    const sim = this.o.sim;
    const maker = new FrameMaker(LIVE_RATES);
    while (!this.stopped) {
      const url = this.o.broker();
      const key = url ? await this.o.key().catch(() => null) : null;
      if (!url || !key) {
        await this.sleep(url ? RETRY_MS : 250);
        continue;
      }
      const device = new LoggerDevice({ broker: url, deviceId: this.o.deviceId, key, clientId: `${this.o.deviceId}-demo`, channels: 2 });
      try {
        await device.connect();
      } catch (err) {
        this.o.log.warn({ err: (err as Error).message, deviceId: this.o.deviceId }, 'demo logger not connected, trying again later');
        await closeQuietly(device);
        await this.sleep(RETRY_MS);
        continue;
      }
      if (this.stopped) {
        await closeQuietly(device);
        break;
      }
      this.device = device;
      // A broker going away shows as errors on the client: noted, never thrown.
      device.client?.on('error', (err) => this.o.log.warn({ err: err.message }, 'demo logger connection error'));
      this.o.log.info({ deviceId: this.o.deviceId }, 'demo logger connected');
      let last = Date.now();
      let lastFix = 0;
      while (!this.stopped && device.client?.connected) {
        await this.sleep(SEND_MS - (Date.now() % SEND_MS));
        if (this.stopped) break;
        const now = Date.now();
        // The sim follows the clock: one 0.1 s step per tenth elapsed (a long pause is not replayed).
        const from = Math.max(last, now - 5000);
        const frames: CanFrame[] = [];
        const fixes: GpsFix[] = [];
        for (let t = from - (from % 100) + 100; t <= now; t += 100) {
          const s = sim.step(0.1);
          maker.frames(s, t * 1000, frames);
          if (t - lastFix >= GPS_EVERY_MS) {
            fixes.push(fixOf(s, t));
            lastFix = t;
          }
        }
        last = now;
        try {
          if (frames.length) {
            await device.sendBatch(frames);
            this.sentFrames += frames.length;
          }
          if (fixes.length) await device.client?.publishAsync(upTopic(this.o.deviceId, 'gps'), JSON.stringify(fixes), { qos: 1 });
        } catch (err) {
          this.o.log.warn({ err: (err as Error).message }, 'demo logger send failed');
        }
      }
      this.device = null;
      await closeQuietly(device);
      if (!this.stopped) await this.sleep(RETRY_MS);
    }
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    const d = this.device;
    if (d?.client) {
      // Say goodbye like a logger switched off, without waiting on a broker that may be gone.
      await Promise.race([
        d.client.publishAsync(upTopic(this.o.deviceId, 'status'), '{"online":false}', { qos: 0 }).catch(() => {}),
        new Promise((r) => setTimeout(r, 500).unref()),
      ]);
      d.client.end(true);
    }
    // A send waiting on a broker that went away must not hold the shutdown.
    await Promise.race([this.loop?.catch(() => {}), new Promise((r) => setTimeout(r, 2000).unref())]);
  }
}

async function closeQuietly(device: LoggerDevice) {
  device.client?.end(true);
  await Promise.race([device.close().catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
}
