import { randomUUID } from 'node:crypto';
import { ErrorCodes } from '@loggerhead/contract';
import type { RawSql } from '../db/client.ts';
import { periodicSlotsRepository } from './periodic-slots.repository.ts';
import { serverCopiesRepository } from './server-copies.repository.ts';

/** The reason a job ends with when the server copy running it stopped (code for the console, text for the API). */
export const INTERRUPTED = { code: 'job.interrupted', message: ErrorCodes['job.interrupted'].message } as const;

/** What a module's recovery step gets on each pass. */
export interface RecoveryPass {
  /** This copy's id: a job it starts or claims names it in its `owner` column. */
  owner: string;
  /** True on this copy's start-up pass, false on the periodic ones. */
  startup: boolean;
  /** This copy is the deployment's only one (embedded broker): nothing runs anywhere else. */
  alone: boolean;
  /**
   * SQL condition, true when the row's owner column names no live server copy (a job of a copy that
   * crashed or stopped). Written into the job table's `where`; `column` may be qualified (`u.owner`).
   */
  dead(column?: string): string;
}

/** Resumes or fails the module's interrupted jobs; returns how many it handled (for the log). */
export type RecoverJobs = (pass: RecoveryPass) => Promise<number | undefined>;

interface Log {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
}

export interface JobLeasesOptions {
  raw: RawSql;
  /** The copy's stable name (host-port), or null when it has none (a port picked at random). */
  name: string | null;
  /** The only copy of the deployment (embedded broker): every other owner is gone. */
  alone: boolean;
  /** A copy silent this long is gone and its jobs are recovered. */
  leaseMs: number;
  log: Log;
}

/**
 * Leases of the server copies over their long-running jobs (exports, quick deletes, back-fills,
 * recalls, firmware upgrades, ECU flashes). Each copy keeps its row in `server_copies` fresh; every job
 * row names its copy in `owner`. At start-up — and every third of the lease, for copies that die while
 * others live — each module's registered step resumes the jobs whose owner is gone (work that can be
 * redone) or ends them as failed with {@link INTERRUPTED}. A job of a live copy is never touched.
 * The periodic pass runs once per period across the copies (docs/decisions/0170-periodic-work-runs-once.md).
 */
export class JobLeases {
  readonly owner = randomUUID();
  private readonly steps: { kind: string; recover: RecoverJobs }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private passing: Promise<void> | null = null;
  private closed = false;

  private readonly copies: ReturnType<typeof serverCopiesRepository>;
  private readonly slots: ReturnType<typeof periodicSlotsRepository>;

  constructor(private readonly opts: JobLeasesOptions) {
    this.copies = serverCopiesRepository(opts.raw);
    this.slots = periodicSlotsRepository(opts.raw);
  }

  /** A module's recovery step; all run once when the app is ready, then periodically. */
  register(kind: string, recover: RecoverJobs): void {
    this.steps.push({ kind, recover });
  }

  /** SQL: the owner column names no live copy (pruned copies are gone from `server_copies`). */
  dead = (column = 'owner'): string =>
    `(${column} is null or not exists (select 1 from server_copies lh_copy where lh_copy.id = ${column}))`;

  /** Takes this copy's lease, recovers what stopped copies left, and keeps the lease fresh. */
  async start(): Promise<void> {
    await this.copies.insert(this.owner, this.opts.name ?? '');
    await this.pass(true);
    const every = Math.max(200, Math.floor(this.opts.leaseMs / 3));
    this.timer = setInterval(() => {
      if (this.passing) return;
      // Each copy renews its own lease; the periodic recovery runs on one copy per period (the one
      // that takes the slot), its start-up pass on each.
      this.passing = this.beat()
        .then(async () => {
          if ((await this.slots.claim('job-recovery', every, this.owner)) !== null) await this.pass(false);
        })
        .catch((err) => this.opts.log.warn({ err }, 'job lease renewal failed'))
        .finally(() => {
          this.passing = null;
        });
    }, every);
    this.timer.unref();
  }

  /** Runs every module's step once (exposed for tests and the periodic timer). */
  async pass(startup: boolean): Promise<void> {
    await this.prune(startup);
    const pass: RecoveryPass = { owner: this.owner, startup, alone: this.opts.alone, dead: this.dead };
    for (const s of this.steps) {
      if (this.closed) return;
      try {
        const n = await s.recover(pass);
        if (n) this.opts.log.info({ kind: s.kind, jobs: n, startup }, 'interrupted jobs recovered');
      } catch (err) {
        this.opts.log.error({ err, kind: s.kind }, 'recovering interrupted jobs failed');
      }
    }
  }

  /** Gives the lease back: the next start, or another copy, takes over at once. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.passing?.catch(() => {});
    await this.copies.remove(this.owner).catch(() => {});
  }

  private async beat(): Promise<void> {
    if (await this.copies.heartbeat(this.owner)) return;
    // Silent longer than the lease (a stall, a lost database): the other copies took this copy's
    // jobs over, and its own runners stop at their next owner-checked write.
    this.opts.log.warn({ owner: this.owner }, 'job lease was lost; its jobs were taken over');
    await this.copies.reinsert(this.owner, this.opts.name ?? '');
  }

  /** Forgets copies that are gone: silent past the lease, this copy's predecessor, or any other when alone. */
  private async prune(startup: boolean): Promise<void> {
    await this.copies.prune(this.owner, this.opts.alone, this.opts.leaseMs, startup, this.opts.name ?? '');
  }
}
