import {
  DeviceCommandParamSchema,
  type GroupCommandIssue,
  GroupCommandParamSchema,
  type Job,
  JobExecution,
  type JobInput,
  type JobLog,
  JobStatus,
} from '@loggerhead/contract';
import parser from 'cron-parser';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import type { QueueJob, Scheduler } from '../../lib/scheduler.ts';
import type { CommandService } from '../command/command.service.ts';
import { requireDevicesWritable } from '../things/things.access.ts';
import { type JobLogRow, type JobRow, type JobsRepository, jobsRepository } from './jobs.repository.ts';

const MINUTE = 60_000;
/** The queue of due job runs, and the once-a-minute sweep that fills it. */
export const RUN_QUEUE = 'tenant-job';
export const SWEEP = 'tenant-job-sweep';

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const floorMinute = (t: number) => Math.floor(t / MINUTE) * MINUTE;

/** The minute-slots at or after `from` when a cron expression fires (UTC), first one only. */
function nextCron(expr: string, from: number): number | null {
  try {
    return parser
      .parseExpression(expr, { currentDate: new Date(from - 1), tz: 'UTC' })
      .next()
      .getTime();
  } catch {
    return null;
  }
}

function checkCron(expr: string) {
  try {
    const it = parser.parseExpression(expr, { tz: 'UTC' });
    it.next();
  } catch {
    throw badRequest('job.bad-cron', undefined, 'cron_expression');
  }
}

/** When a job runs next (ms), or null when it will not run again. */
export function nextRun(
  j: Pick<JobRow, 'status' | 'execution_method' | 'cron_expression' | 'start_time' | 'end_time'>,
  now: number,
): number | null {
  if (j.status !== JobStatus.enabled) return null;
  const start = j.start_time ? j.start_time.getTime() : null;
  const end = j.end_time ? j.end_time.getTime() : null;
  let at: number | null;
  if (j.execution_method === JobExecution.once) at = start !== null ? floorMinute(start) : null;
  else at = nextCron(j.cron_expression, Math.max(floorMinute(now) + MINUTE, start === null ? 0 : floorMinute(start)));
  if (at === null || at < floorMinute(now) + (j.execution_method === JobExecution.once ? 0 : MINUTE)) return null;
  return end !== null && at >= end ? null : at;
}

function toJob(r: JobRow, now = Date.now()): Job {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    name: r.name,
    cron_expression: r.cron_expression,
    execution_method: r.execution_method as Job['execution_method'],
    handler_action_id: r.handler_action_id as Job['handler_action_id'],
    handler_custom_param: r.handler_custom_param,
    start_time: ms(r.start_time),
    end_time: ms(r.end_time),
    retry_times: r.retry_times,
    retry_period: r.retry_period,
    status: r.status as Job['status'],
    next_run_time: nextRun(r, now),
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

function toLog(r: JobLogRow): JobLog {
  return {
    id: r.id,
    job_id: r.job_id,
    job_name: r.job_name,
    scheduled_time: ms(r.scheduled_at) ?? 0,
    attempt: r.attempt,
    state: r.state,
    message: r.message,
    result: r.result ?? null,
    started_at: ms(r.started_at) ?? 0,
    finished_at: ms(r.finished_at),
  };
}

export const JOB_ACTION_INFO = [
  {
    id: 'device-command' as const,
    name: 'Send a device command',
    description: 'Sends one command (operation_name, operation_params) to each device of things_ids, as the job’s author.',
  },
  {
    id: 'group-command' as const,
    name: 'Send a group command',
    description:
      'Sends one command (operation_name, operation_params) to every member of the device group group_id, as a group command of the job’s author.',
  },
];

/** What the jobs need of device groups (the group service). */
export interface JobGroups {
  get(auth: Auth, id: string): Promise<unknown>;
  command(
    auth: Auth,
    id: string,
    body: GroupCommandIssue,
  ): Promise<{ id: string; items?: { things_id: string; correlation_id: string }[] }>;
}

/**
 * Scheduled jobs (spec §7 /job-mgmt). Each minute one sweep (a pg-boss cron schedule: once per
 * minute across all server copies) finds the jobs due in that minute and claims each due minute in
 * `job_logs` (unique per job, minute and try), so a run is queued once even if two sweeps met; the
 * run is taken by one copy, retried `retry_times` times `retry_period` seconds apart, and logged.
 * A job runs as its author, with the author's permissions at run time.
 */
export function jobsService(deps: {
  raw: RawSql;
  commands: CommandService;
  groups?: JobGroups;
  scheduler: Scheduler | null;
  now?: () => number;
}) {
  const repo: JobsRepository = jobsRepository(deps.raw);
  const now = deps.now ?? Date.now;

  async function validate(auth: Auth, j: JobInput) {
    checkCron(j.cron_expression);
    if (j.start_time && j.end_time && j.end_time <= j.start_time) throw badRequest('job.bad-time', undefined, 'end_time');
    if (j.execution_method === JobExecution.once && !j.start_time)
      throw badRequest('job.bad-time', 'A job that runs once needs its start time', 'start_time');
    if (j.handler_action_id === 'group-command') {
      const g = GroupCommandParamSchema.safeParse(j.handler_custom_param);
      if (!g.success || !deps.groups) throw badRequest('job.bad-param', g.error?.issues[0]?.message, 'handler_custom_param');
      // The group must be the tenant's (group.not-found otherwise); its members are checked at each run.
      await deps.groups.get(auth, g.data.group_id);
      return { ...j, handler_custom_param: g.data as Record<string, unknown> };
    }
    const p = DeviceCommandParamSchema.safeParse(j.handler_custom_param);
    if (!p.success) throw badRequest('job.bad-param', p.error.issues[0]?.message, 'handler_custom_param');
    await requireDevicesWritable(deps.raw, auth, p.data.things_ids);
    return { ...j, handler_custom_param: p.data as Record<string, unknown> };
  }

  async function found(auth: Auth, id: string): Promise<JobRow> {
    const r = await repo.get(auth.tenantId, id);
    if (!r) throw ApiError.of('job.not-found');
    return r;
  }

  async function runAs(userId: string | null): Promise<Auth> {
    const u = userId ? await repo.runner(userId) : null;
    if (!u) throw new Error('the job’s author is no longer an active user');
    return {
      userId: u.id,
      tenantId: u.tenant_id,
      username: u.username,
      sessionId: 'scheduled-job',
      isManager: u.is_manager,
      systemManager: u.system_manager,
      grants: null,
      readOnly: u.is_demo,
    };
  }

  const svc = {
    actions: () => JOB_ACTION_INFO,

    async list(auth: Auth, q: { current_page: number; page_size: number; name?: string; status?: number }) {
      const { total, rows } = await repo.list(auth.tenantId, {
        name: q.name,
        status: q.status,
        limit: q.page_size,
        offset: (q.current_page - 1) * q.page_size,
      });
      const t = now();
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map((r) => toJob(r, t)) };
    },

    async get(auth: Auth, id: string) {
      return toJob(await found(auth, id), now());
    },

    async create(auth: Auth, body: JobInput) {
      const j = await validate(auth, body);
      try {
        return toJob((await repo.get(auth.tenantId, await repo.insert(auth.tenantId, auth.userId, j))) as JobRow, now());
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('job.duplicate', undefined, 'name');
        throw e;
      }
    },

    async update(auth: Auth, id: string, body: JobInput) {
      await found(auth, id);
      const j = await validate(auth, body);
      try {
        await repo.update(auth.tenantId, id, j);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('job.duplicate', undefined, 'name');
        throw e;
      }
      return toJob(await found(auth, id), now());
    },

    async setStatus(auth: Auth, id: string, status: number) {
      if (!(await repo.setStatus(auth.tenantId, id, status))) throw ApiError.of('job.not-found');
      return toJob(await found(auth, id), now());
    },

    async remove(auth: Auth, id: string) {
      if (!(await repo.remove(auth.tenantId, id))) throw ApiError.of('job.not-found');
    },

    async logs(auth: Auth, q: { current_page: number; page_size: number; job_id?: string; state?: string }) {
      const { total, rows } = await repo.logs(auth.tenantId, {
        jobId: q.job_id,
        state: q.state,
        limit: q.page_size,
        offset: (q.current_page - 1) * q.page_size,
      });
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toLog) };
    },

    async deleteLogs(auth: Auth, ids: string[]) {
      return { deleted: await repo.deleteLogs(auth.tenantId, ids) };
    },

    async cleanupLogs(auth: Auth, body: { before: number; job_id?: string }) {
      return { deleted: await repo.cleanupLogs(auth.tenantId, new Date(body.before), body.job_id) };
    },

    /**
     * The minute's sweep: every job due in the minute starting at `at` (floored) is claimed and
     * queued. Returns the ids it queued (another copy's sweep of the same minute queues none of them).
     */
    async sweep(at = now()): Promise<string[]> {
      const slot = floorMinute(at);
      const queued: string[] = [];
      for (const j of await repo.enabledAt(new Date(slot))) {
        const due =
          j.execution_method === JobExecution.once
            ? j.start_time !== null && floorMinute(j.start_time.getTime()) === slot
            : nextCron(j.cron_expression, slot) === slot;
        if (!due || !(await repo.claim(j, new Date(slot)))) continue;
        await deps.scheduler?.send(
          RUN_QUEUE,
          { job_id: j.id, slot },
          { retryLimit: j.retry_times, retryDelay: j.retry_period, expireInSeconds: 600 },
        );
        queued.push(j.id);
      }
      return queued;
    },

    /** One try of a due minute of a job: its action, run as its author; a throw makes the queue retry. */
    async run(job: QueueJob<{ job_id: string; slot: number }>) {
      const j = await repo.jobById(job.data.job_id);
      if (!j) return; // deleted since
      const slot = new Date(job.data.slot);
      const attempt = job.retryCount + 1;
      await repo.startTry(j, slot, attempt);
      try {
        const auth = await runAs(j.created_by);
        if (j.handler_action_id === 'group-command') {
          const g = GroupCommandParamSchema.parse(j.handler_custom_param);
          if (!deps.groups) throw new Error('group commands are not available');
          const sent = await deps.groups.command(auth, g.group_id, {
            description: g.description ?? `job ${j.name}`,
            payload: { operation_name: g.operation_name, operation_params: g.operation_params },
          } as GroupCommandIssue);
          await repo.endTry(j.id, slot, attempt, 'succeeded', null, { group_command: sent.id, commands: sent.items ?? [] });
          return;
        }
        const p = DeviceCommandParamSchema.parse(j.handler_custom_param);
        const sent = [];
        for (const thingsId of p.things_ids) {
          const c = await deps.commands.issue(auth, thingsId, {
            operation_name: p.operation_name,
            operation_params: p.operation_params,
            description: p.description ?? `job ${j.name}`,
          } as Parameters<CommandService['issue']>[2]);
          sent.push({ things_id: thingsId, correlation_id: c.correlation_id, state: c.state });
        }
        await repo.endTry(j.id, slot, attempt, 'succeeded', null, { commands: sent });
      } catch (e) {
        const message = e instanceof ApiError ? e.message : ((e as Error)?.message ?? String(e));
        await repo.endTry(j.id, slot, attempt, 'failed', message, null);
        throw e;
      }
    },
  };
  return svc;
}

export type JobsService = ReturnType<typeof jobsService>;
