import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/** Job status (spec §3 job `status`): 1 enabled, 0 disabled. */
export const JobStatus = { disabled: 0, enabled: 1 } as const;
/** How a job runs (spec §3 `execution_method`): 0 on its cron expression, 1 once at its start time. */
export const JobExecution = { cron: 0, once: 1 } as const;

/**
 * A five-field cron expression (minute hour day-of-month month day-of-week, in UTC): the finest
 * step is one minute. Checked here for its shape; the server parses it fully.
 */
export const CronExpressionSchema = z
  .string()
  .trim()
  .regex(/^\S+(\s+\S+){4}$/, 'five fields: minute hour day-of-month month day-of-week');

/** The actions a job can run (`handler_action_id`), listed by `GET /job-mgmt/handler-action`. */
export const JOB_ACTIONS = ['device-command', 'group-command'] as const;
export const JobActionSchema = z.enum(JOB_ACTIONS);

/** `device-command`: one command sent to each device (spec §3 device message payload). */
export const DeviceCommandParamSchema = z.object({
  things_ids: z.array(UuidSchema).min(1).max(100),
  operation_name: z.string().min(1).max(128),
  operation_params: z.record(z.string(), z.unknown()).default({}),
  description: z.string().max(256).optional(),
});

/** `group-command`: one command sent to every member of a device group (as a group command). */
export const GroupCommandParamSchema = z.object({
  group_id: UuidSchema,
  operation_name: z.string().min(1).max(128),
  operation_params: z.record(z.string(), z.unknown()).default({}),
  description: z.string().max(256).optional(),
});

export const JobInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  cron_expression: CronExpressionSchema,
  execution_method: z.union([z.literal(JobExecution.cron), z.literal(JobExecution.once)]).default(JobExecution.cron),
  handler_action_id: JobActionSchema,
  handler_custom_param: z.record(z.string(), z.unknown()).default({}),
  /** ms since the epoch; no runs before. */
  start_time: z.number().int().min(0).nullable().optional(),
  /** ms since the epoch; no runs from then on. */
  end_time: z.number().int().min(0).nullable().optional(),
  retry_times: z.number().int().min(0).max(10).default(0),
  /** Seconds between tries. */
  retry_period: z.number().int().min(1).max(3600).default(60),
  status: z.union([z.literal(JobStatus.disabled), z.literal(JobStatus.enabled)]).default(JobStatus.enabled),
});
export type JobInput = z.infer<typeof JobInputSchema>;

export const JobSchema = JobInputSchema.extend({
  id: UuidSchema,
  tenant_id: UuidSchema,
  start_time: z.number().nullable(),
  end_time: z.number().nullable(),
  /** When it runs next (ms), or null when it will not run again. */
  next_run_time: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Job = z.infer<typeof JobSchema>;

export const JobQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  name: z.string().max(64).optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
});
export const JobPageSchema = pageOf(JobSchema);

export const JobLogSchema = z.object({
  id: UuidSchema,
  job_id: UuidSchema,
  job_name: z.string(),
  /** The minute it was due (ms). */
  scheduled_time: z.number(),
  attempt: z.number().int(),
  state: z.enum(['queued', 'running', 'succeeded', 'failed']),
  message: z.string().nullable(),
  result: z.unknown().nullable(),
  started_at: z.number(),
  finished_at: z.number().nullable(),
});
export type JobLog = z.infer<typeof JobLogSchema>;
export const JobLogQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  job_id: UuidSchema.optional(),
  state: z.enum(['queued', 'running', 'succeeded', 'failed']).optional(),
});
export const JobLogPageSchema = pageOf(JobLogSchema);
export const JobLogDeleteSchema = z.object({ ids: z.array(UuidSchema).min(1).max(1000) });
/** Cleanup: a job's logs (or all) older than a time. */
export const JobLogCleanupSchema = z.object({ job_id: UuidSchema.optional(), before: z.number().int().min(0) });
export const JobLogDeletedSchema = z.object({ deleted: z.number().int() });

export const JobActionInfoSchema = z.object({ id: JobActionSchema, name: z.string(), description: z.string() });
