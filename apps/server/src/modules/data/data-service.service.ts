import {
  CLEAN_TASK_MAX_ROWS,
  type CleanTask,
  type CleanTaskInput,
  type DownloadCreate,
  type DownloadTemplate,
  type DownloadTemplateInput,
  type ExportFormat,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { requireDevice } from '../things/things.access.ts';
import { type CleanTaskRow, dataServiceRepository, type TemplateRow } from './data-service.repository.ts';
import { DAY_MS, quickDeleteRepository } from './quick-delete.repository.ts';

/** The daily sweep of clean tasks (the job scheduler runs it hourly; each task runs once a day). */
export const CLEAN_SWEEP = 'clean-tasks-sweep';
const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

function toTemplate(r: TemplateRow): DownloadTemplate {
  return {
    id: r.id,
    name: r.name,
    things_ids: r.things_ids,
    format: r.format as ExportFormat,
    channels: r.channels,
    ids: r.ids,
    plugin_id: r.plugin_id,
    begin_time: r.begin_time === null ? null : Number(r.begin_time),
    end_time: r.end_time === null ? null : Number(r.end_time),
    last_hours: r.last_hours,
    last_run_at: ms(r.last_run_at),
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

function toCleanTask(r: CleanTaskRow): CleanTask {
  return {
    id: r.id,
    name: r.name,
    things_id: r.things_id,
    things_name: r.things_name,
    keep_days: r.keep_days,
    status: r.status,
    last_run_at: ms(r.last_run_at),
    last_deleted: r.last_deleted === null ? null : Number(r.last_deleted),
    last_limited: r.last_limited,
    last_error: r.last_error,
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

interface Exports {
  create(auth: Auth, thingsId: string, body: DownloadCreate): Promise<{ id: string }>;
}

/**
 * Download templates and clean tasks (docs/decisions/0161-templates-and-clean-tasks.md). A template
 * run starts the existing export on each of its devices with the template's settings; a clean task
 * deletes a device's data (frames, decoded signals, GPS fixes, twin events) older than `keep_days`,
 * oldest first, at most `maxRows` (1 million) rows a run.
 */
interface SignalsClean {
  cleanBefore(tenantId: string, thingsId: string, beforeUs: number, maxSamples: number): Promise<{ samples: number; limited: boolean }>;
}

export function dataServiceService(deps: { raw: RawSql; exports: Exports; signals: SignalsClean; now?: () => number; maxRows?: number }) {
  const repo = dataServiceRepository(deps.raw);
  const quick = quickDeleteRepository(deps.raw);
  const now = deps.now ?? Date.now;
  const maxRows = deps.maxRows ?? CLEAN_TASK_MAX_ROWS;

  const template = async (auth: Auth, id: string) => {
    const r = await repo.template(auth.tenantId, id);
    if (!r) throw ApiError.of('download-template.not-found');
    return r;
  };
  const cleanTask = async (auth: Auth, id: string) => {
    const r = await repo.cleanTask(auth.tenantId, id);
    if (!r) throw ApiError.of('clean-task.not-found');
    return r;
  };

  async function templateValues(auth: Auth, b: DownloadTemplateInput) {
    const things_ids = [...new Set(b.things_ids)];
    for (const id of things_ids) await requireDevice(deps.raw, auth, id, 'read');
    const fixed = b.begin_time != null && b.end_time != null;
    return {
      name: b.name,
      things_ids,
      format: b.format,
      channels: b.channels ?? [],
      ids: b.ids ?? [],
      plugin_id: b.plugin_id ?? null,
      begin_time: fixed ? (b.begin_time as number) : null,
      end_time: fixed ? (b.end_time as number) : null,
      last_hours: fixed ? null : (b.last_hours ?? null),
    };
  }

  /**
   * Deletes the device's data older than the task's days, within the row limit, store by store and
   * oldest first in each: frame chunks whose last frame is older (frames count one row each, a chunk
   * straddling the cut-off stays), decoded signal chunks whose last sample is older (samples count one
   * row each), GPS fixes, digital-twin events, then the history of model properties. A store that
   * reaches the limit stops the run.
   */
  async function clean(r: CleanTaskRow) {
    const cutoff = now() - r.keep_days * DAY_MS;
    const fb = await repo.framesBound(r.tenant_id, r.things_id, cutoff * 1000, maxRows);
    let frames = 0;
    // Chunks whose last frame is before the bound (µs) also start before it.
    for (const day of await quick.frameDays(r.tenant_id, r.things_id, { from: null, to: Math.ceil(fb.bound / 1000) })) {
      frames += (await quick.deleteFrames(r.tenant_id, r.things_id, day, { from: null, to: null }, fb.bound)).frames;
    }
    let limited = fb.limited;
    const none = { n: 0, limited: true };
    const sig = limited
      ? { samples: 0, limited: true }
      : await deps.signals.cleanBefore(r.tenant_id, r.things_id, cutoff * 1000, maxRows - frames);
    limited ||= sig.limited;
    const gps = limited ? none : await repo.deleteGpsBefore(r.tenant_id, r.things_id, cutoff, maxRows - frames - sig.samples);
    limited ||= gps.limited;
    const events = limited
      ? none
      : await repo.deleteModelEventsBefore(r.tenant_id, r.things_id, cutoff, maxRows - frames - sig.samples - gps.n);
    limited ||= events.limited;
    const properties = limited
      ? none
      : await repo.deletePropertyValuesBefore(r.tenant_id, r.things_id, cutoff, maxRows - frames - sig.samples - gps.n - events.n);
    limited ||= properties.limited;
    const deleted = frames + sig.samples + gps.n + events.n + properties.n;
    const out = { frames, samples: sig.samples, gps: gps.n, events: events.n, properties: properties.n, deleted, limited, cutoff };
    await repo.cleanTaskRan(r.id, { deleted, limited, error: null });
    return out;
  }

  return {
    async templates(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      const { total, rows } = await repo.templates(auth.tenantId, q.keyword, q.page_size, (q.current_page - 1) * q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toTemplate) };
    },
    template: async (auth: Auth, id: string) => toTemplate(await template(auth, id)),
    async createTemplate(auth: Auth, b: DownloadTemplateInput) {
      try {
        return toTemplate(await repo.insertTemplate(auth.tenantId, auth.userId, await templateValues(auth, b)));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('download-template.duplicate', undefined, 'name');
        throw e;
      }
    },
    async updateTemplate(auth: Auth, id: string, b: DownloadTemplateInput) {
      await template(auth, id);
      try {
        const r = await repo.updateTemplate(auth.tenantId, id, await templateValues(auth, b));
        if (!r) throw ApiError.of('download-template.not-found');
        return toTemplate(r);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('download-template.duplicate', undefined, 'name');
        throw e;
      }
    },
    async removeTemplate(auth: Auth, id: string) {
      if (!(await repo.removeTemplate(auth.tenantId, id))) throw ApiError.of('download-template.not-found');
      return { ok: true as const };
    },
    /** One export per device with the template's settings; the range is the run's, the template's, or its last hours. */
    async runTemplate(auth: Auth, id: string, body: { begin_time?: number; end_time?: number }) {
      const r = toTemplate(await template(auth, id));
      let begin: number;
      let end: number;
      if (body.begin_time !== undefined && body.end_time !== undefined) {
        begin = body.begin_time;
        end = body.end_time;
      } else if (r.begin_time !== null && r.end_time !== null) {
        begin = r.begin_time;
        end = r.end_time;
      } else {
        end = now();
        begin = end - (r.last_hours ?? 24) * 3_600_000;
      }
      if (end <= begin) throw badRequest('http.400', 'end_time must be after begin_time', 'end_time');
      const downloads: { things_id: string; id: string }[] = [];
      for (const thingsId of r.things_ids) {
        const d = await deps.exports.create(auth, thingsId, {
          begin_time: begin,
          end_time: end,
          format: r.format,
          ...(r.channels.length ? { channels: r.channels } : {}),
          ...(r.ids.length ? { ids: r.ids } : {}),
          ...(r.plugin_id ? { plugin_id: r.plugin_id } : {}),
        });
        downloads.push({ things_id: thingsId, id: d.id });
      }
      await repo.templateRan(auth.tenantId, id);
      return { begin_time: begin, end_time: end, downloads };
    },

    async cleanTasks(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      const { total, rows } = await repo.cleanTasks(auth.tenantId, q.keyword, q.page_size, (q.current_page - 1) * q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toCleanTask) };
    },
    cleanTask: async (auth: Auth, id: string) => toCleanTask(await cleanTask(auth, id)),
    async createCleanTask(auth: Auth, b: CleanTaskInput) {
      // Deleting a device's data needs write access to it.
      await requireDevice(deps.raw, auth, b.things_id, 'write');
      try {
        const id = await repo.insertCleanTask(auth.tenantId, auth.userId, b);
        return toCleanTask(await cleanTask(auth, id));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('clean-task.duplicate', undefined, 'name');
        throw e;
      }
    },
    async updateCleanTask(auth: Auth, id: string, b: CleanTaskInput) {
      await cleanTask(auth, id);
      await requireDevice(deps.raw, auth, b.things_id, 'write');
      try {
        await repo.updateCleanTask(auth.tenantId, id, b);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('clean-task.duplicate', undefined, 'name');
        throw e;
      }
      return toCleanTask(await cleanTask(auth, id));
    },
    async setCleanTaskStatus(auth: Auth, id: string, status: number) {
      if (!(await repo.setCleanTaskStatus(auth.tenantId, id, status))) throw ApiError.of('clean-task.not-found');
      return toCleanTask(await cleanTask(auth, id));
    },
    async removeCleanTask(auth: Auth, id: string) {
      if (!(await repo.removeCleanTask(auth.tenantId, id))) throw ApiError.of('clean-task.not-found');
      return { ok: true as const };
    },
    async runCleanTask(auth: Auth, id: string) {
      const r = await cleanTask(auth, id);
      await requireDevice(deps.raw, auth, r.things_id, 'write');
      return clean(r);
    },
    /** The scheduler's sweep: every enabled task not run in the last day, once. */
    async sweep(): Promise<number> {
      let n = 0;
      for (const r of await repo.dueCleanTasks(new Date(now() - DAY_MS + 60_000), 100)) {
        try {
          await clean(r);
        } catch (e) {
          await repo.cleanTaskRan(r.id, { deleted: null, limited: false, error: e instanceof Error ? e.message : String(e) });
        }
        n++;
      }
      return n;
    },
  };
}
export type DataServiceService = ReturnType<typeof dataServiceService>;
