import type { RawSql } from '../db/client.ts';
import { type TrafficRepository, type TrafficRow, trafficRepository } from './traffic.repository.ts';

const HOUR_MS = 3_600_000;

interface Log {
  warn: (o: object, m: string) => void;
}

/**
 * Counts each device's traffic per hour of arrival in memory and adds it to `traffic_hourly` every
 * few seconds (docs/decisions/0175-tenant-flow-and-ranking.md). Counting is a map update on the
 * uplink path, never a statement: the PUBACK does not wait on it. Each server copy counts what it
 * received and flushes its own counts; a copy that dies loses at most its last interval.
 */
export class TrafficCounter {
  /** Counts by hour, then device: a message costs two map look-ups and no allocation. */
  private pending = new Map<number, Map<string, TrafficRow>>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private clock: NodeJS.Timeout | null = null;
  /** The current hour, read from the clock once a second while started (a clock read per message costs more than the count). */
  private hourNow: number;
  private readonly repo: TrafficRepository;
  private readonly now: () => number;

  constructor(
    raw: RawSql,
    private readonly opts: { log: Log; flushMs?: number; now?: () => number },
  ) {
    this.repo = trafficRepository(raw);
    this.now = opts.now ?? Date.now;
    this.hourNow = this.currentHour();
  }

  private currentHour(): number {
    return Math.floor(this.now() / HOUR_MS) * HOUR_MS;
  }

  private row(tenantId: string, thingsId: string, hour = this.clock ? this.hourNow : this.currentHour()): TrafficRow {
    let devices = this.pending.get(hour);
    if (!devices) {
      devices = new Map();
      this.pending.set(hour, devices);
    }
    let r = devices.get(thingsId);
    if (!r) {
      r = { tenantId, thingsId, hour, messages: 0, frames: 0, bytes: 0, forwarded: 0 };
      devices.set(thingsId, r);
    }
    return r;
  }

  /** An uplink message accepted from the device: its payload bytes and the CAN frames it carried. */
  received(tenantId: string, thingsId: string, bytes: number, frames: number): void {
    const r = this.row(tenantId, thingsId);
    r.messages++;
    r.frames += frames;
    r.bytes += bytes;
  }

  /** Messages of the device that forwarding delivered to a destination. */
  forwarded(tenantId: string, thingsId: string, messages: number): void {
    this.row(tenantId, thingsId).forwarded += messages;
  }

  /** Adds what was counted so far to the table; a failed write keeps the counts for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.pending.size) return;
      const rows = [...this.pending.values()].flatMap((devices) => [...devices.values()]);
      this.pending = new Map();
      try {
        await this.repo.add(rows);
      } catch (err) {
        // Back into their own hours, beside what arrived meanwhile.
        for (const r of rows) {
          const p = this.row(r.tenantId, r.thingsId, r.hour);
          p.messages += r.messages;
          p.frames += r.frames;
          p.bytes += r.bytes;
          p.forwarded += r.forwarded;
        }
        this.opts.log.warn({ err }, 'traffic counts not stored; kept for the next flush');
      }
    });
    return this.flushing;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.opts.flushMs ?? 5000);
    this.timer.unref();
    this.hourNow = this.currentHour();
    this.clock = setInterval(() => {
      this.hourNow = this.currentHour();
    }, 1000);
    this.clock.unref();
  }

  /** Stops the timer and stores what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.clock) clearInterval(this.clock);
    this.timer = null;
    this.clock = null;
    await this.flush();
  }
}
