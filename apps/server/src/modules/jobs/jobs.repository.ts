import type { JobInput } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export interface JobRow {
  id: string;
  tenant_id: string;
  name: string;
  cron_expression: string;
  execution_method: number;
  handler_action_id: string;
  handler_custom_param: Record<string, unknown>;
  start_time: Date | null;
  end_time: Date | null;
  retry_times: number;
  retry_period: number;
  status: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface JobLogRow {
  id: string;
  job_id: string;
  job_name: string;
  scheduled_at: Date;
  attempt: number;
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  message: string | null;
  result: unknown;
  started_at: Date;
  finished_at: Date | null;
}

export interface RunnerRow {
  id: string;
  tenant_id: string;
  username: string;
  is_manager: boolean;
  system_manager: boolean;
  is_demo: boolean;
}

const COLS = `id, tenant_id, name, cron_expression, execution_method, handler_action_id, handler_custom_param,
  start_time, end_time, retry_times, retry_period, status, created_by, created_at, updated_at`;
const ts = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms));

/** Scheduled jobs and their logs, always within one tenant (the scheduler's sweep reads every tenant's due jobs). */
export function jobsRepository(raw: RawSql) {
  return {
    async list(tenantId: string, q: { name?: string; status?: number; limit: number; offset: number }) {
      const where = ['tenant_id = $1'];
      const args: unknown[] = [tenantId];
      if (q.name) {
        args.push(`%${q.name.replace(/[\\%_]/g, '\\$&')}%`);
        where.push(`name ilike $${args.length}`);
      }
      if (q.status !== undefined) {
        args.push(q.status);
        where.push(`status = $${args.length}`);
      }
      const w = where.join(' and ');
      const total = (await raw.query<{ n: number }>(`select count(*)::int as n from jobs where ${w}`, args)).rows[0].n;
      const { rows } = await raw.query<JobRow>(
        `select ${COLS} from jobs where ${w} order by created_at desc, id limit ${q.limit} offset ${q.offset}`,
        args,
      );
      return { total, rows };
    },

    async get(tenantId: string, id: string): Promise<JobRow | null> {
      return (await raw.query<JobRow>(`select ${COLS} from jobs where tenant_id = $1 and id = $2`, [tenantId, id])).rows[0] ?? null;
    },

    async insert(tenantId: string, userId: string, j: JobInput): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into jobs (tenant_id, name, cron_expression, execution_method, handler_action_id, handler_custom_param,
                           start_time, end_time, retry_times, retry_period, status, created_by)
         values ($1,$2,$3,$4,$5,$6::jsonb,$7,$8,$9,$10,$11,$12) returning id`,
        [
          tenantId,
          j.name,
          j.cron_expression,
          j.execution_method,
          j.handler_action_id,
          JSON.stringify(j.handler_custom_param),
          ts(j.start_time),
          ts(j.end_time),
          j.retry_times,
          j.retry_period,
          j.status,
          userId,
        ],
      );
      return rows[0].id;
    },

    async update(tenantId: string, id: string, j: JobInput): Promise<boolean> {
      const { rows } = await raw.query(
        `update jobs set name = $3, cron_expression = $4, execution_method = $5, handler_action_id = $6,
                handler_custom_param = $7::jsonb, start_time = $8, end_time = $9, retry_times = $10, retry_period = $11,
                status = $12, updated_at = now()
          where tenant_id = $1 and id = $2 returning id`,
        [
          tenantId,
          id,
          j.name,
          j.cron_expression,
          j.execution_method,
          j.handler_action_id,
          JSON.stringify(j.handler_custom_param),
          ts(j.start_time),
          ts(j.end_time),
          j.retry_times,
          j.retry_period,
          j.status,
        ],
      );
      return rows.length > 0;
    },

    async setStatus(tenantId: string, id: string, status: number): Promise<boolean> {
      const { rows } = await raw.query('update jobs set status = $3, updated_at = now() where tenant_id = $1 and id = $2 returning id', [
        tenantId,
        id,
        status,
      ]);
      return rows.length > 0;
    },

    async remove(tenantId: string, id: string): Promise<boolean> {
      return (await raw.query('delete from jobs where tenant_id = $1 and id = $2 returning id', [tenantId, id])).rows.length > 0;
    },

    /** Every tenant's enabled jobs that may be due in the minute starting at `slot`. */
    async enabledAt(slot: Date): Promise<JobRow[]> {
      const { rows } = await raw.query<JobRow>(
        `select ${COLS} from jobs j
          where status = 1 and (start_time is null or start_time < $1::timestamptz + interval '1 minute')
            and (end_time is null or end_time > $1)
            and exists (select 1 from tenants t where t.id = j.tenant_id and t.status = 1)`,
        [slot],
      );
      return rows;
    },

    /** Claims a due minute of a job: true for the one server copy whose claim is first. */
    async claim(job: JobRow, slot: Date): Promise<boolean> {
      const { rows } = await raw.query(
        `insert into job_logs (tenant_id, job_id, scheduled_at, attempt, state) values ($1, $2, $3, 1, 'queued')
         on conflict (job_id, scheduled_at, attempt) do nothing returning id`,
        [job.tenant_id, job.id, slot],
      );
      return rows.length > 0;
    },

    async jobById(id: string): Promise<JobRow | null> {
      return (await raw.query<JobRow>(`select ${COLS} from jobs where id = $1`, [id])).rows[0] ?? null;
    },

    async startTry(job: JobRow, slot: Date, attempt: number): Promise<void> {
      await raw.query(
        `insert into job_logs (tenant_id, job_id, scheduled_at, attempt, state) values ($1, $2, $3, $4, 'running')
         on conflict (job_id, scheduled_at, attempt) do update set state = 'running', started_at = now()`,
        [job.tenant_id, job.id, slot, attempt],
      );
    },

    async endTry(jobId: string, slot: Date, attempt: number, state: 'succeeded' | 'failed', message: string | null, result: unknown) {
      await raw.query(
        `update job_logs set state = $4, message = $5, result = $6::jsonb, finished_at = now()
          where job_id = $1 and scheduled_at = $2 and attempt = $3`,
        [jobId, slot, attempt, state, message, result === undefined ? null : JSON.stringify(result)],
      );
    },

    /** Who a job runs as: its author, while the author and the tenant are active. */
    async runner(userId: string): Promise<RunnerRow | null> {
      const { rows } = await raw.query<RunnerRow>(
        `select u.id, u.tenant_id, u.username, u.is_manager, u.system_manager, t.is_demo
           from users u join tenants t on t.id = u.tenant_id where u.id = $1 and u.status = 1 and t.status = 1`,
        [userId],
      );
      return rows[0] ?? null;
    },

    async logs(tenantId: string, q: { jobId?: string; state?: string; limit: number; offset: number }) {
      const where = ['l.tenant_id = $1'];
      const args: unknown[] = [tenantId];
      if (q.jobId) {
        args.push(q.jobId);
        where.push(`l.job_id = $${args.length}`);
      }
      if (q.state) {
        args.push(q.state);
        where.push(`l.state = $${args.length}`);
      }
      const w = where.join(' and ');
      const total = (await raw.query<{ n: number }>(`select count(*)::int as n from job_logs l where ${w}`, args)).rows[0].n;
      const { rows } = await raw.query<JobLogRow>(
        `select l.id, l.job_id, j.name as job_name, l.scheduled_at, l.attempt, l.state, l.message, l.result, l.started_at, l.finished_at
           from job_logs l join jobs j on j.id = l.job_id
          where ${w} order by l.scheduled_at desc, l.attempt desc limit ${q.limit} offset ${q.offset}`,
        args,
      );
      return { total, rows };
    },

    async deleteLogs(tenantId: string, ids: string[]): Promise<number> {
      return (await raw.query('delete from job_logs where tenant_id = $1 and id = any($2::uuid[]) returning id', [tenantId, ids])).rows
        .length;
    },

    async cleanupLogs(tenantId: string, before: Date, jobId?: string): Promise<number> {
      const args: unknown[] = [tenantId, before];
      let extra = '';
      if (jobId) {
        args.push(jobId);
        extra = ' and job_id = $3';
      }
      return (await raw.query(`delete from job_logs where tenant_id = $1 and started_at < $2${extra} returning id`, args)).rows.length;
    },
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;
