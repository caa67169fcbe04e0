import PgBoss from 'pg-boss';
import type { RawSql } from '../db/client.ts';
import { bossDb } from '../db/pg-boss.ts';

interface Log {
  info: (o: object | string, m?: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
}

export interface QueueJob<T> {
  id: string;
  data: T;
  /** Tries before this one (0 on the first). */
  retryCount: number;
}

type Registration =
  | { kind: 'every'; name: string; cron: string; handler: () => Promise<void>; pollSeconds: number }
  | { kind: 'queue'; name: string; handler: (job: QueueJob<unknown>) => Promise<unknown>; pollSeconds: number };

/**
 * One scheduler for background and periodic work, on the database the server already uses (pg-boss,
 * its tables in the schema `pgboss`): cron schedules that run once per due minute whichever server
 * copies are up, and queues whose jobs are taken by one copy, retried with a delay, and time out.
 */
export class Scheduler {
  private readonly boss: PgBoss;
  private readonly registrations: Registration[] = [];
  private running = false;
  /** This copy's worker of each queue: a job sent from here wakes it at once instead of at its next poll. */
  private readonly workers = new Map<string, string>();

  constructor(
    raw: RawSql,
    private readonly log: Log,
  ) {
    this.boss = new PgBoss({ db: bossDb(raw), schema: 'pgboss', supervise: true, schedule: true, migrate: true });
    this.boss.on('error', (err) => this.log.warn({ err }, 'scheduler'));
  }

  /** Runs `handler` on a five-field cron expression (UTC), once per due minute across all copies. */
  every(name: string, cron: string, handler: () => Promise<void>, opts: { pollSeconds?: number } = {}): void {
    // Cron jobs are created once a minute at most: polling for them every few seconds is enough.
    this.registrations.push({ kind: 'every', name, cron, handler, pollSeconds: opts.pollSeconds ?? 10 });
  }

  /** Handles the jobs sent to a queue, one at a time per copy. */
  queue<T>(name: string, handler: (job: QueueJob<T>) => Promise<unknown>, opts: { pollSeconds?: number } = {}): void {
    this.registrations.push({
      kind: 'queue',
      name,
      handler: handler as (job: QueueJob<unknown>) => Promise<unknown>,
      pollSeconds: opts.pollSeconds ?? 2,
    });
  }

  /** Sends a job: retried `retryLimit` times `retryDelay` seconds apart when its handler throws. */
  async send(
    name: string,
    data: object,
    opts: { retryLimit?: number; retryDelay?: number; expireInSeconds?: number } = {},
  ): Promise<string | null> {
    const id = await this.boss.send(name, data, opts);
    const worker = this.workers.get(name);
    if (worker && this.running) this.boss.notifyWorker(worker);
    return id;
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.running = true;
    for (const r of this.registrations) {
      await this.boss.createQueue(r.name);
      if (r.kind === 'every') {
        await this.boss.schedule(r.name, r.cron, {}, { tz: 'UTC' });
        await this.boss.work(r.name, { pollingIntervalSeconds: r.pollSeconds }, async () => {
          await r.handler();
        });
      } else {
        const worker = await this.boss.work(r.name, { pollingIntervalSeconds: r.pollSeconds, includeMetadata: true }, async ([job]) => {
          const j = job as unknown as { id: string; data: unknown; retryCount?: number; retry_count?: number };
          return r.handler({ id: j.id, data: j.data, retryCount: j.retryCount ?? j.retry_count ?? 0 });
        });
        this.workers.set(r.name, worker);
      }
    }
  }

  async schedules(): Promise<{ name: string; cron: string }[]> {
    return (await this.boss.getSchedules()).map((s) => ({ name: s.name, cron: s.cron }));
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.boss
      .stop({ graceful: true, wait: true, timeout: 10_000, close: false })
      .catch((err) => this.log.warn({ err }, 'scheduler stop'));
  }
}
