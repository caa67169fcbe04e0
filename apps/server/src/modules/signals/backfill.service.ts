import { FLAG_ERR, FLAG_EXT, FLAG_RTR, forEachFrame } from '@loggerhead/can/protocol/batch.ts';
import type { Backfill, BackfillRange } from '@loggerhead/contract';
import { fromB64 } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';
import { INTERRUPTED, type RecoveryPass } from '../../lib/job-leases.ts';
import { type BackfillRow, type BackfillScope, backfillRepository } from './backfill.repository.ts';
import type { SignalIngest } from './signals.ingest.ts';

/** Raw chunks read per step; progress is written after each. */
const CHUNKS_PER_STEP = 16;

interface Task {
  id: string;
  cancelled: boolean;
  /** Stopped for shutdown (or taken over by another copy): the row stays running, to be resumed. */
  left: boolean;
  done: Promise<void>;
}

const key = (thingsId: string, channel: number) => `${thingsId}/${channel}`;

/**
 * Back-fill of a channel whose DBC parsing starts while it already holds raw frames: the frames of
 * a chosen range, received before the task began, are decoded in the background with the channel's
 * binding and stored like decoded-on-ingest samples (roll-ups, capacity). Time spans the channel
 * already holds decoded samples for (an earlier started period) are skipped, so nothing is stored
 * twice; frames received after the task began are decoded on ingest. One task per channel at a
 * time; pause, unbind or a new binding stop it. A back-fill stopped by a shutdown or a crash is
 * resumed at the next start (or by another server copy): what it stored is skipped like any other
 * decoded span.
 */
export function backfillService(deps: {
  raw: RawSql;
  ingest: SignalIngest;
  log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /** This server copy's id (`ctx.jobs.owner`): the back-fills it runs name it. */
  owner?: string;
}) {
  const { raw, ingest } = deps;
  const repo = backfillRepository(raw);
  const owner = deps.owner ?? null;
  const running = new Map<string, Task>();

  function toBackfill(r: BackfillRow): Backfill {
    const state = r.state as Backfill['state'];
    return {
      id: r.id,
      things_id: r.things_id,
      channel: r.channel,
      begin_time: Number(r.begin_time),
      end_time: Number(r.end_time),
      state,
      total_frames: Number(r.total_frames),
      done_frames: Number(r.done_frames),
      samples: Number(r.samples),
      error: r.error,
      created_at: new Date(r.created_at).getTime(),
      finished_at: r.finished_at ? new Date(r.finished_at).getTime() : null,
    };
  }

  /** Merged time spans (µs) of the channel's stored decoded chunks overlapping [fromUs, toUs). */
  async function decodedSpans(tenantId: string, thingsId: string, channel: number, fromUs: number, toUs: number) {
    const rows = await repo.decodedSpans(tenantId, thingsId, channel, fromUs, toUs);
    return { starts: rows.map((r) => Number(r.s)), ends: rows.map((r) => Number(r.e)) };
  }

  async function run(task: Task, tenantId: string, thingsId: string, channel: number, fromUs: number, toUs: number) {
    const scope: BackfillScope = { taskId: task.id, tenantId, thingsId, channel, fromUs, toUs };
    // Batches committed before the task began and still queued are decoded first: then the decoded
    // spans below include them.
    await ingest.idle();
    await repo.noteTotal(scope);
    const spans = await decodedSpans(tenantId, thingsId, channel, fromUs, toUs);
    const covered = (ts: number) => {
      // The last span starting at or before ts.
      let lo = 0;
      let hi = spans.starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (spans.starts[mid] <= ts) lo = mid + 1;
        else hi = mid;
      }
      return lo > 0 && ts <= spans.ends[lo - 1];
    };
    const only = new Set([channel]);
    let after: [number, number, number] | null = null;
    let done = 0;
    let samples = 0;
    for (;;) {
      if (task.left) return;
      if (task.cancelled) return finish(task.id, 'cancelled', null);
      const rows = await repo.chunkPage(scope, after, CHUNKS_PER_STEP);
      if (!rows.length) break;
      samples += await ingest.decodeChannel(tenantId, thingsId, channel, (visit) => {
        for (const r of rows) {
          forEachFrame(fromB64(r.data), { channels: only, from: fromUs, to: toUs }, (ts, ch, id, fl, _len, data) => {
            if (!(fl & (FLAG_RTR | FLAG_ERR)) && !covered(ts)) visit(ts, ch, id, (fl & FLAG_EXT) !== 0, data);
            return true;
          });
        }
      });
      for (const r of rows) done += Number(r.frame_count);
      const last = rows[rows.length - 1];
      after = [Number(last.time_start), Number(last.session), Number(last.seq)];
      // Another copy took it over (this one was silent past its lease): it goes on there.
      if (!(await repo.progress(task.id, done, samples, owner))) task.left = true;
      // Let live ingest and requests in between steps.
      await new Promise((r) => setImmediate(r));
    }
    await finish(task.id, 'done', null);
  }

  async function finish(id: string, state: 'done' | 'failed' | 'cancelled', error: string | null) {
    await repo.finish(id, state, error, owner);
  }

  /** Runs a task row in the background (new, or resumed after a stop). */
  function launch(row: BackfillRow): void {
    const k = key(row.things_id, row.channel);
    const task: Task = { id: row.id, cancelled: false, left: false, done: Promise.resolve() };
    running.set(k, task);
    task.done = run(task, row.tenant_id, row.things_id, row.channel, Number(row.begin_time) * 1000, Number(row.end_time) * 1000)
      .catch(async (err) => {
        deps.log.error({ err, thingsId: row.things_id, channel: row.channel }, 'back-fill failed');
        await finish(task.id, 'failed', err instanceof Error ? err.message.slice(0, 500) : 'failed').catch(() => {});
      })
      .finally(() => {
        if (running.get(k) === task) running.delete(k);
      });
  }

  return {
    /** Starts a back-fill (range already checked by the caller); refused while one runs on the channel. */
    async start(tenantId: string, thingsId: string, channel: number, range: BackfillRange): Promise<Backfill | 'running'> {
      const k = key(thingsId, channel);
      if (running.has(k)) return 'running';
      const row = await repo.insert(tenantId, thingsId, channel, range, owner);
      launch(row);
      return toBackfill(row);
    },

    /** Stops the channel's running back-fill (pause, unbind, new binding); resolves when it has stopped. */
    async stop(thingsId: string, channel: number): Promise<boolean> {
      const task = running.get(key(thingsId, channel));
      if (!task) return false;
      task.cancelled = true;
      await task.done;
      return true;
    },

    /** The channel's newest back-fill, or null. */
    async latest(tenantId: string, thingsId: string, channel: number): Promise<Backfill | null> {
      const row = await repo.latest(tenantId, thingsId, channel);
      return row ? toBackfill(row) : null;
    },

    /** Resolves when no back-fill runs (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size) await Promise.all([...running.values()].map((t) => t.done));
    },

    /** Stops every back-fill for a shutdown: they stay running, and the next start resumes them. */
    async stopAll(): Promise<void> {
      for (const t of running.values()) t.left = true;
      await Promise.all([...running.values()].map((t) => t.done));
    },

    /**
     * Back-fills of a stopped server copy: resumed where the channel still decodes with the binding
     * they began under (the frames are still stored, and spans decoded before the stop are skipped);
     * otherwise they end as interrupted with the reason.
     */
    async recover(pass: RecoveryPass): Promise<number> {
      const rows = await repo.takeOver(pass.owner, pass.dead('d.owner'));
      for (const r of rows) {
        if (r.resumable && !running.has(key(r.things_id, r.channel))) launch(r);
        else await repo.interrupt(r.id, INTERRUPTED.message);
      }
      return rows.length;
    },
  };
}

export type BackfillService = ReturnType<typeof backfillService>;
