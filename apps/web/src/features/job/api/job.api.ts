import { type RouteBody, type RouteQuery, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const J = Routes.jobs;

export type JobBody = RouteBody<typeof J.create>;

/** Scheduled jobs of the tenant and their logs (`/job-mgmt`, decision 0133). */
export const jobApi = {
  actions: (signal?: AbortSignal) => call(J.actions, { signal }),
  list: (tenantId: string, query: RouteQuery<typeof J.list>, signal?: AbortSignal) =>
    call(J.list, { params: { tenant_id: tenantId }, query, signal }),
  create: (tenantId: string, body: JobBody) => call(J.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: JobBody) => call(J.update, { params: { tenant_id: tenantId, job_id: id }, body }),
  remove: (tenantId: string, id: string) => call(J.remove, { params: { tenant_id: tenantId, job_id: id } }),
  setStatus: (tenantId: string, id: string, status: 0 | 1) => call(J.setStatus, { params: { tenant_id: tenantId, job_id: id, status } }),
  logs: (tenantId: string, query: RouteQuery<typeof J.logs>, signal?: AbortSignal) =>
    call(J.logs, { params: { tenant_id: tenantId }, query, signal }),
  deleteLogs: (tenantId: string, ids: string[]) => call(J.deleteLogs, { params: { tenant_id: tenantId }, body: { ids } }),
  cleanupLogs: (tenantId: string, before: number, jobId?: string) =>
    call(J.cleanupLogs, { params: { tenant_id: tenantId }, body: { before, ...(jobId ? { job_id: jobId } : {}) } }),
  groups: async (tenantId: string, signal?: AbortSignal) =>
    (await call(Routes.groups.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 500 }, signal })).list,
  devices: async (tenantId: string, signal?: AbortSignal) =>
    (
      await call(Routes.things.list, {
        params: { tenant_id: tenantId },
        query: { current_page: 1, page_size: 9999, order_param: 'name', order_type: 0 },
        signal,
      })
    ).list,
};

export const jobKeys = {
  all: ['job'] as const,
  list: (tenantId: string | null, page: number, size: number, name: string) =>
    [...jobKeys.all, 'list', tenantId, page, size, name] as const,
  logs: (tenantId: string | null, page: number, size: number, jobId: string, state: string) =>
    [...jobKeys.all, 'logs', tenantId, page, size, jobId, state] as const,
  actions: () => [...jobKeys.all, 'actions'] as const,
  devices: (tenantId: string | null) => [...jobKeys.all, 'devices', tenantId] as const,
};
