import { type QuickDeleteRequest, QuickDeleteRequestSchema, QuickDeleteStatus, type QuickDeleteTask } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import type { RecoveryPass } from '../../lib/job-leases.ts';
import { recalledKey } from '../recall/recall.service.ts';
import { requireDevice } from '../things/things.access.ts';
import {
  type QuickDeleteRepository,
  type QuickDeleteRow,
  quickDeleteRepository,
  type Range,
  type RecalledFile,
} from './quick-delete.repository.ts';

export interface QuickDeleteDeps {
  raw: RawSql;
  events: EventBus;
  /** The file store (recalled files are under `recall/`). */
  files: FileStore;
  /** Password re-confirmation of the caller (wrong tries count toward the lock-out). */
  reauth: (auth: Auth, password: string) => Promise<void>;
  packages: { load(tenantId: string): Promise<{ quick_delete_things_list: unknown[] }> };
  usage: { add(tenantId: string, thingsId: string, bytes: number): Promise<void> };
  signals: {
    clearDevice(tenantId: string, thingsId: string): Promise<number>;
    clearRange(tenantId: string, thingsId: string, fromMs: number, toMs: number): Promise<number>;
    purgeBefore(tenantId: string, beforeMs: number, thingsId?: string | null): Promise<number>;
  };
  log: { error: (o: object, m: string) => void };
  /** This server copy's id (`ctx.jobs.owner`): the tasks it runs name it. */
  owner?: string;
}

/** The task was taken over by another server copy (this one was silent past its lease): stop here. */
class TakenOver extends Error {}

const num = (v: number | string | null) => (v === null ? null : Number(v));

export function toTask(r: QuickDeleteRow): QuickDeleteTask {
  const done = r.status === QuickDeleteStatus.done;
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    things_ids: r.things_ids,
    start_time: num(r.start_time),
    end_time: num(r.end_time),
    status: r.status as QuickDeleteTask['status'],
    process_rate: done ? 100 : r.steps_total ? Math.min(99, Math.floor((r.steps_done * 100) / r.steps_total)) : 0,
    steps_done: r.steps_done,
    steps_total: r.steps_total,
    deleted_frames: Number(r.deleted_frames),
    deleted_bytes: Number(r.deleted_bytes),
    error: r.error,
    created_at: new Date(r.created_at).toISOString(),
    finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

/**
 * After their rows were deleted: removes recalled files from disk (under the data directory's
 * `recall` folder) and gives their bytes back to each device's capacity. Returns the bytes freed.
 */
export async function removeRecalledFiles(
  deps: Pick<QuickDeleteDeps, 'files' | 'usage'>,
  tenantId: string,
  files: RecalledFile[],
): Promise<number> {
  const freed = new Map<string, number>();
  for (const f of files) {
    await deps.files.remove(recalledKey(tenantId, f.name));
    freed.set(f.things_id, (freed.get(f.things_id) ?? 0) + f.size);
  }
  let total = 0;
  for (const [thingsId, bytes] of freed) {
    if (bytes) await deps.usage.add(tenantId, thingsId, -bytes);
    total += bytes;
  }
  return total;
}

/**
 * Quick delete of devices' data (spec §4, §6): password re-confirmation → a task that deletes,
 * device by device, the frame chunks (one step per partition-day), the decoded signals, the GPS
 * fixes and the recalled files within the range, giving their bytes back to the capacity.
 */
export function quickDeleteService(deps: QuickDeleteDeps, repo: QuickDeleteRepository = quickDeleteRepository(deps.raw)) {
  const running = new Map<string, Promise<void>>();
  const owner = deps.owner ?? null;
  const progress = async (id: string, p: Parameters<QuickDeleteRepository['progress']>[1]) => {
    if (!(await repo.progress(id, p, owner))) throw new TakenOver();
  };

  async function run(task: QuickDeleteRow): Promise<void> {
    const tenantId = task.tenant_id;
    const range: Range = { from: num(task.start_time), to: num(task.end_time) };
    try {
      // Plan every step first so that the progress is a true share of the work.
      const plan: { thingsId: string; days: number[] }[] = [];
      for (const thingsId of task.things_ids) plan.push({ thingsId, days: await repo.frameDays(tenantId, thingsId, range) });
      const total = plan.reduce((n, p) => n + p.days.length + 3, 0);
      let done = 0;
      await progress(task.id, { status: QuickDeleteStatus.running, stepsTotal: total, stepsDone: 0 });
      const step = (p: { frames?: number; bytes?: number } = {}) => progress(task.id, { stepsDone: ++done, ...p });

      for (const { thingsId, days } of plan) {
        for (const day of days) {
          const g = await repo.deleteFrames(tenantId, thingsId, day, range);
          await step(g);
        }
        const signalBytes =
          range.from === null && range.to === null
            ? await deps.signals.clearDevice(tenantId, thingsId)
            : range.from === null
              ? await deps.signals.purgeBefore(tenantId, range.to as number, thingsId)
              : await deps.signals.clearRange(tenantId, thingsId, range.from, range.to ?? Number.MAX_SAFE_INTEGER / 1000);
        await step({ bytes: signalBytes });
        await repo.deleteGps(tenantId, thingsId, range);
        await repo.deleteModelData(tenantId, thingsId, range);
        await step();
        const fileBytes = await removeRecalledFiles(deps, tenantId, await repo.deleteFiles(tenantId, thingsId, range));
        await step({ bytes: fileBytes });
      }
      await progress(task.id, { status: QuickDeleteStatus.done });
      deps.events.emit('package.changed', { tenantId });
    } catch (err) {
      if (err instanceof TakenOver) return;
      deps.log.error({ err, task: task.id }, 'quick delete failed');
      await repo
        .progress(task.id, { status: QuickDeleteStatus.failed, error: err instanceof Error ? err.message : String(err) }, owner)
        .catch(() => {});
    }
  }

  function start(task: QuickDeleteRow) {
    if (running.has(task.id)) return;
    const p = run(task).finally(() => running.delete(task.id));
    running.set(task.id, p);
  }

  function assertTenant(auth: Auth, tenantId: string) {
    if (auth.tenantId !== tenantId) throw forbidden();
  }

  return {
    async create(auth: Auth, tenantId: string, input: QuickDeleteRequest): Promise<QuickDeleteTask> {
      assertTenant(auth, tenantId);
      const body = QuickDeleteRequestSchema.parse(input);
      await deps.reauth(auth, body.password);
      const range: Range = { from: body.start_time ?? null, to: body.end_time ?? null };
      if (range.from !== null && range.to !== null && range.from >= range.to) {
        throw new ApiError(400, 'quick-delete.bad-range', undefined, { field: 'start_time' });
      }
      const asked = [...new Set(Array.isArray(body.things_id) ? body.things_id : [body.things_id])];
      // Each device must be the caller's to write (404 outside the tenant), and on the package's list.
      for (const id of asked) await requireDevice(deps.raw, auth, id, 'write');
      const pkg = await deps.packages.load(tenantId);
      const listed = new Set((pkg.quick_delete_things_list as { third_things_id: string }[]).map((q) => q.third_things_id));
      const devices = await repo.devices(tenantId, asked);
      const outside = devices.filter((d) => !listed.has(d.third_things_id));
      if (outside.length || devices.length !== asked.length) {
        throw new ApiError(403, 'quick-delete.not-listed', undefined, {
          field: 'things_id',
          details: { things_id: outside.map((d) => d.id) },
        });
      }
      const ids = body.delete_children ? [...new Set([...asked, ...(await repo.children(tenantId, asked))])] : asked;
      const row = await repo.create({ tenantId, userId: auth.userId, thingsIds: ids, range, owner });
      start(row);
      return toTask(row);
    },

    async get(auth: Auth, tenantId: string, id: string): Promise<QuickDeleteTask> {
      assertTenant(auth, tenantId);
      const row = await repo.get(tenantId, id);
      if (!row) throw notFound('Task not found');
      return toTask(row);
    },

    async list(auth: Auth, tenantId: string, q: { current_page: number; page_size: number }) {
      assertTenant(auth, tenantId);
      const { rows, total } = await repo.page(tenantId, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toTask) };
    },

    /**
     * Resumes the tasks a stopped server copy left unfinished: every step is an idempotent delete, so
     * the plan is made again from what is left and run to the end.
     */
    async recover(pass: RecoveryPass): Promise<number> {
      const tasks = await repo.claimInterrupted(pass.dead(), pass.owner);
      for (const t of tasks) start(t);
      return tasks.length;
    },

    /** Resolves when every running task has finished (shutdown, tests). */
    async idle(): Promise<void> {
      while (running.size) await Promise.all([...running.values()]);
    },
  };
}
export type QuickDeleteService = ReturnType<typeof quickDeleteService>;
