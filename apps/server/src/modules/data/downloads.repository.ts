import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface DownloadRow {
  id: string;
  tenant_id: string;
  things_id: string;
  user_id: string | null;
  session_id: string | null;
  format: 'candump' | 'asc' | 'blf' | 'csv';
  params: { begin_time: number; end_time: number; channels?: number[]; ids?: number[] };
  status: number;
  process_rate: number;
  data_count: number;
  output_count: number;
  data_bytes: number;
  upload_bytes: number;
  estimated_time: number;
  file_path: string | null;
  file_name: string | null;
  error: string | null;
}

/** Statuses of a task still at work (spec §4 wire codes 1, 2, 4, 5). */
const UNFINISHED = '(1, 2, 4, 5)';

/** The read-only session a task belongs to: only that session sees it (null for every other caller). */
const sessionOf = (auth: Auth) => (auth.readOnly ? auth.sessionId : null);

export function downloadsRepository(raw: RawSql) {
  return {
    /** The tenant's export documents kept or being made (not cancelled or failed): documents_download_quota's count. */
    async countStored(tenantId: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from download_tasks where tenant_id = $1 and status not in (6, 7)',
        [tenantId],
      );
      return Number(rows[0].n);
    },
    async insert(auth: Auth, thingsId: string, format: string, params: object, tx: RawSql = raw): Promise<string> {
      const { rows } = await tx.query<{ id: string }>(
        `insert into download_tasks (tenant_id, things_id, user_id, session_id, format, params)
         values ($1,$2,$3,$4,$5,$6::jsonb) returning id`,
        [auth.tenantId, thingsId, auth.userId, sessionOf(auth), format, JSON.stringify(params)],
      );
      return rows[0].id;
    },
    /** A task of the device; a read-only session sees only its own. */
    async get(auth: Auth, thingsId: string, id: string): Promise<DownloadRow | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const { rows } = await raw.query<DownloadRow>(
        `select * from download_tasks where tenant_id = $1 and things_id = $2 and id = $3
            and ($4::uuid is null or session_id = $4::uuid)`,
        [auth.tenantId, thingsId, id, sessionOf(auth)],
      );
      return rows[0] ?? null;
    },

    /** Unfinished tasks of the tenant's read-only sessions started since `since`: all, and the caller session's. */
    async unfinishedOfSessions(tx: RawSql, auth: Auth, since: Date): Promise<{ all: number; mine: number }> {
      const { rows } = await tx.query<{ all: number; mine: number }>(
        `select count(*)::int as all, (count(*) filter (where session_id = $2))::int as mine from download_tasks
          where tenant_id = $1 and session_id is not null and status in ${UNFINISHED} and created_at >= $3`,
        [auth.tenantId, sessionOf(auth), since],
      );
      return rows[0] ?? { all: 0, mine: 0 };
    },

    /**
     * Deletes tasks of the tenant's read-only sessions that are not at work here: those started
     * before `before`, and all but the newest `keep` of the rest. Returns their files.
     */
    async pruneSessions(tx: RawSql, auth: Auth, before: Date, keep: number, busy: string[]): Promise<string[]> {
      const { rows } = await tx.query<{ file_path: string | null }>(
        `delete from download_tasks where id in (
           select id from (
             select id, created_at, row_number() over (order by created_at desc, id) as n from download_tasks
              where tenant_id = $1 and session_id is not null and not (id = any($4::uuid[]))
           ) x where x.created_at < $2 or x.n > $3
         ) returning file_path`,
        [auth.tenantId, before, keep, busy],
      );
      return rows.flatMap((r) => (r.file_path ? [r.file_path] : []));
    },
    /**
     * Progress written by the export job (its task id came from `insert`, scoped there). False when
     * the task is gone (cleaned up or its device deleted meanwhile).
     */
    async progress(
      id: string,
      p: Partial<Omit<DownloadRow, 'id' | 'tenant_id' | 'things_id' | 'user_id' | 'session_id' | 'format' | 'params'>>,
    ): Promise<boolean> {
      const cols = Object.keys(p);
      if (!cols.length) return true;
      const sets = cols.map((c, i) => `${c} = $${i + 2}`);
      const done = p.status === 3 || p.status === 6 || p.status === 7;
      const { rows } = await raw.query(
        `update download_tasks set ${sets.join(', ')}${done ? ', finished_at = now()' : ''} where id = $1 returning id`,
        [id, ...cols.map((c) => (p as Record<string, unknown>)[c])],
      );
      return rows.length > 0;
    },
    /** The server copy running the export (`ctx.jobs.owner`). */
    async own(id: string, owner: string) {
      await raw.query('update download_tasks set owner = $2 where id = $1', [id, owner]);
    },
    /** Unfinished exports whose server copy is gone (`dead`: SQL on `owner`) end as failed (7). */
    async failInterrupted(dead: string, reason: string): Promise<number> {
      const { rows } = await raw.query(
        `update download_tasks set status = 7, error = $1, estimated_time = 0, finished_at = now()
          where status in (1, 2, 4, 5) and ${dead} returning id`,
        [reason],
      );
      return rows.length;
    },
    /** A file under `exports/` belongs to an export that is done or still running (not failed, cancelled or gone). */
    async keepsFile(id: string): Promise<boolean> {
      const { rows } = await raw.query('select 1 from download_tasks where id = $1 and status not in (6, 7)', [id]);
      return rows.length > 0;
    },

    /** The names an export file is named after. */
    async deviceNames(tenantId: string, thingsId: string): Promise<{ name: string; third_things_id: string } | null> {
      return (
        (
          await raw.query<{ name: string; third_things_id: string }>(
            'select name, third_things_id from things where id = $1 and tenant_id = $2',
            [thingsId, tenantId],
          )
        ).rows[0] ?? null
      );
    },

    /** Serialises the starts of the tenant's experience exports until the transaction ends. */
    async lockExperienceStarts(tx: RawSql, tenantId: string): Promise<void> {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`experience-export:${tenantId}`]);
    },
  };
}
