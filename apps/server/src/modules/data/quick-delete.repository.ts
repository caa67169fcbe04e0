import type { RawSql } from '../../db/client.ts';
import { MODEL_DATA_TABLES } from '../twin/twin.repository.ts';

export const DAY_MS = 86_400_000;
const DAY_US = DAY_MS * 1000;

export interface QuickDeleteRow {
  id: string;
  tenant_id: string;
  user_id: string | null;
  things_ids: string[];
  start_time: number | string | null;
  end_time: number | string | null;
  status: number;
  steps_done: number;
  steps_total: number;
  deleted_frames: number | string;
  deleted_bytes: number | string;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** A recalled file whose row was deleted: its file on disk and its bytes are to go next. */
export interface RecalledFile {
  things_id: string;
  name: string;
  size: number;
}

/** [from, to) in ms; null = unbounded. */
export interface Range {
  from: number | null;
  to: number | null;
}

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** SQL only: the task rows, and the deletes of one device's stored data. */
export function quickDeleteRepository(raw: RawSql) {
  return {
    async create(v: {
      tenantId: string;
      userId: string;
      thingsIds: string[];
      range: Range;
      owner: string | null;
    }): Promise<QuickDeleteRow> {
      const { rows } = await raw.query<QuickDeleteRow>(
        `insert into quick_delete_tasks (tenant_id, user_id, things_ids, start_time, end_time, owner)
         values ($1, $2, $3::uuid[], $4, $5, $6) returning *`,
        [v.tenantId, v.userId, `{${v.thingsIds.join(',')}}`, v.range.from, v.range.to, v.owner],
      );
      return rows[0];
    },

    async get(tenantId: string, id: string): Promise<QuickDeleteRow | null> {
      const { rows } = await raw.query<QuickDeleteRow>('select * from quick_delete_tasks where tenant_id = $1 and id = $2', [tenantId, id]);
      return rows[0] ?? null;
    },

    async page(tenantId: string, offset: number, limit: number) {
      const count = await raw.query<{ n: number }>('select count(*)::int as n from quick_delete_tasks where tenant_id = $1', [tenantId]);
      const { rows } = await raw.query<QuickDeleteRow>(
        'select * from quick_delete_tasks where tenant_id = $1 order by created_at desc, id offset $2 limit $3',
        [tenantId, offset, limit],
      );
      return { rows, total: count.rows[0].n };
    },

    /**
     * Unfinished tasks whose server copy is gone (`dead`: SQL on `owner`), taken over by `owner`
     * (resumed: every step is an idempotent delete). One copy wins each task.
     */
    async claimInterrupted(dead: string, owner: string): Promise<QuickDeleteRow[]> {
      const { rows } = await raw.query<QuickDeleteRow>(
        `update quick_delete_tasks set owner = $1 where status in (1, 2) and ${dead} returning *`,
        [owner],
      );
      return rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
    },

    /** False when `owner` no longer runs the task (another copy took it over): the runner stops. */
    async progress(
      id: string,
      p: { status?: number; stepsDone?: number; stepsTotal?: number; frames?: number; bytes?: number; error?: string },
      owner: string | null = null,
    ): Promise<boolean> {
      const { rows } = await raw.query(
        `update quick_delete_tasks set status = coalesce($2, status), steps_done = coalesce($3, steps_done),
           steps_total = coalesce($4, steps_total), deleted_frames = deleted_frames + $5, deleted_bytes = deleted_bytes + $6,
           error = coalesce($7, error), finished_at = case when $2 in (3, 4) then now() else finished_at end
         where id = $1 and ($8::uuid is null or owner = $8::uuid) returning id`,
        [id, p.status ?? null, p.stepsDone ?? null, p.stepsTotal ?? null, p.frames ?? 0, p.bytes ?? 0, p.error ?? null, owner],
      );
      return rows.length > 0;
    },

    /** Devices of the tenant whose parent is one of `ids` (delete_children). */
    async children(tenantId: string, ids: string[]): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>(
        'select id from things where tenant_id = $1 and parent_things_id = any($2::uuid[]) order by id',
        [tenantId, `{${ids.join(',')}}`],
      );
      return rows.map((r) => r.id);
    },

    /** Device ids and third_things_id of the tenant among `ids`. */
    async devices(tenantId: string, ids: string[]): Promise<{ id: string; third_things_id: string }[]> {
      const { rows } = await raw.query<{ id: string; third_things_id: string }>(
        'select id, third_things_id from things where tenant_id = $1 and id = any($2::uuid[])',
        [tenantId, `{${ids.join(',')}}`],
      );
      return rows;
    },

    /** The days (partitions) holding frame chunks of a device in the range, from the per-day usage. */
    async frameDays(tenantId: string, thingsId: string, r: Range): Promise<number[]> {
      const { rows } = await raw.query<{ d: string }>(
        `select to_char(day, 'YYYY-MM-DD') as d from storage_usage
          where tenant_id = $1 and things_id = $2 and ($3::date is null or day >= $3::date) and ($4::date is null or day < $4::date)
          order by day`,
        [
          tenantId,
          thingsId,
          r.from === null ? null : dateOf(Math.floor(r.from / DAY_MS)),
          r.to === null ? null : dateOf(Math.ceil(r.to / DAY_MS)),
        ],
      );
      return rows.map((x) => Math.floor(Date.parse(`${x.d}T00:00:00Z`) / DAY_MS));
    },

    /**
     * Deletes a device's frame chunks that start on `day` within the range (chunk granularity:
     * a chunk belongs to the range by its first frame), and takes them off that day's usage. With
     * `endBeforeUs`, only those whose last frame is before it (a clean task keeps a straddling chunk).
     */
    async deleteFrames(
      tenantId: string,
      thingsId: string,
      day: number,
      r: Range,
      endBeforeUs: number | null = null,
    ): Promise<{ frames: number; bytes: number }> {
      const lo = Math.max(day * DAY_US, r.from === null ? -Infinity : r.from * 1000);
      const hi = Math.min((day + 1) * DAY_US, r.to === null ? Infinity : r.to * 1000);
      if (lo >= hi) return { frames: 0, bytes: 0 };
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ frames: number; bytes: number; chunks: number }>(
          `with gone as (delete from frame_chunks where tenant_id = $1 and things_id = $2 and time_start >= $3 and time_start < $4
                           and ($5::bigint is null or time_end < $5::bigint)
                         returning frame_count, octet_length(data) as b)
           select coalesce(sum(frame_count), 0)::float8 as frames, coalesce(sum(b), 0)::float8 as bytes, count(*)::int as chunks from gone`,
          [tenantId, thingsId, lo, hi, endBeforeUs],
        );
        const g = { frames: Number(rows[0].frames), bytes: Number(rows[0].bytes), chunks: rows[0].chunks };
        await tx.query(
          `update storage_usage set bytes = greatest(0, bytes - $4), frames = greatest(0, frames - $5), chunks = greatest(0, chunks - $6)
            where tenant_id = $1 and things_id = $2 and day = $3::date`,
          [tenantId, thingsId, dateOf(day), g.bytes, g.frames, g.chunks],
        );
        await tx.query('delete from storage_usage where tenant_id = $1 and things_id = $2 and day = $3::date and chunks = 0', [
          tenantId,
          thingsId,
          dateOf(day),
        ]);
        return g;
      });
    },

    async deleteGps(tenantId: string, thingsId: string, r: Range): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        `with gone as (delete from gps_fixes where tenant_id = $1 and things_id = $2
                         and ($3::bigint is null or ts >= $3) and ($4::bigint is null or ts < $4) returning 1)
         select count(*)::int as n from gone`,
        [tenantId, thingsId, r.from, r.to],
      );
      return rows[0].n;
    },

    /** The device's model data in the range: its twin's events and the history of its properties. */
    async deleteModelData(tenantId: string, thingsId: string, r: Range): Promise<number> {
      let n = 0;
      for (const table of MODEL_DATA_TABLES) {
        const { rows } = await raw.query<{ n: number }>(
          `with gone as (delete from ${table} where tenant_id = $1 and things_id = $2
                           and ($3::float8 is null or ts >= to_timestamp($3::float8 / 1000))
                           and ($4::float8 is null or ts < to_timestamp($4::float8 / 1000)) returning 1)
           select count(*)::int as n from gone`,
          [tenantId, thingsId, r.from, r.to],
        );
        n += rows[0].n;
      }
      return n;
    },

    /** Recalled files of the device whose time (as the device listed it, else when fetched) lies in the range. */
    async deleteFiles(tenantId: string, thingsId: string, r: Range): Promise<RecalledFile[]> {
      const { rows } = await raw.query<{ name: string; size: number }>(
        `delete from recall_files where tenant_id = $1 and things_id = $2
           and ($3::bigint is null or coalesce(file_time, (extract(epoch from stored_at) * 1000)::bigint) >= $3)
           and ($4::bigint is null or coalesce(file_time, (extract(epoch from stored_at) * 1000)::bigint) < $4)
         returning name, size::float8 as size`,
        [tenantId, thingsId, r.from, r.to],
      );
      return rows.map((x) => ({ things_id: thingsId, name: x.name, size: Number(x.size) }));
    },

    /** Recalled files of the tenant fetched (stored) before `beforeMs`: retention. */
    async deleteFilesStoredBefore(tenantId: string, beforeMs: number): Promise<RecalledFile[]> {
      const { rows } = await raw.query<RecalledFile>(
        `delete from recall_files where tenant_id = $1 and stored_at < to_timestamp($2::float8 / 1000)
         returning things_id, name, size::float8 as size`,
        [tenantId, beforeMs],
      );
      return rows.map((x) => ({ things_id: x.things_id, name: x.name, size: Number(x.size) }));
    },
  };
}
export type QuickDeleteRepository = ReturnType<typeof quickDeleteRepository>;
