import { z } from 'zod';
import { UuidSchema } from '../schemas/common.ts';
import {
  JobActionInfoSchema,
  JobInputSchema,
  JobLogCleanupSchema,
  JobLogDeletedSchema,
  JobLogDeleteSchema,
  JobLogPageSchema,
  JobLogQuerySchema,
  JobPageSchema,
  JobQuerySchema,
  JobSchema,
} from '../schemas/jobs.ts';
import { defineRoute, TenantParams } from './define.ts';

const base = '/job-mgmt/tenants/:tenant_id';
const JobParams = TenantParams.extend({ job_id: UuidSchema });

/** Scheduled jobs (spec §7 `/job-mgmt`): cron jobs running a handler action, and their logs. */
export const JobRoutes = {
  actions: defineRoute({
    method: 'GET',
    path: '/job-mgmt/handler-action',
    response: z.array(JobActionInfoSchema),
    permission: 'job-mgmt:job:query',
  }),
  list: defineRoute({
    method: 'GET',
    path: `${base}/jobs`,
    params: TenantParams,
    query: JobQuerySchema,
    response: JobPageSchema,
    permission: 'job-mgmt:job:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${base}/jobs`,
    params: TenantParams,
    body: JobInputSchema,
    response: JobSchema,
    permission: 'job-mgmt:job:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/jobs/:job_id`,
    params: JobParams,
    response: JobSchema,
    permission: 'job-mgmt:job:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/jobs/:job_id`,
    params: JobParams,
    body: JobInputSchema,
    response: JobSchema,
    permission: 'job-mgmt:job:edit',
  }),
  remove: defineRoute({ method: 'DELETE', path: `${base}/jobs/:job_id`, params: JobParams, permission: 'job-mgmt:job:delete' }),
  /** Status by value in the path (spec §4 status changes). */
  setStatus: defineRoute({
    method: 'PUT',
    path: `${base}/jobs/:job_id/status/:status`,
    params: JobParams.extend({ status: z.coerce.number().int().min(0).max(1) }),
    response: JobSchema,
    permission: 'job-mgmt:job:edit-status',
  }),
  logs: defineRoute({
    method: 'GET',
    path: `${base}/job-logs`,
    params: TenantParams,
    query: JobLogQuerySchema,
    response: JobLogPageSchema,
    permission: 'job-mgmt:job-log:query',
  }),
  deleteLogs: defineRoute({
    method: 'DELETE',
    path: `${base}/job-logs`,
    params: TenantParams,
    body: JobLogDeleteSchema,
    response: JobLogDeletedSchema,
    permission: 'job-mgmt:job-log:delete',
  }),
  cleanupLogs: defineRoute({
    method: 'POST',
    path: `${base}/job-logs/cleanup`,
    params: TenantParams,
    body: JobLogCleanupSchema,
    response: JobLogDeletedSchema,
    permission: 'job-mgmt:job-log:delete',
  }),
};
