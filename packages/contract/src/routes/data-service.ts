import { z } from 'zod';
import { OkSchema, UuidSchema } from '../schemas/common.ts';
import {
  CleanTaskInputSchema,
  CleanTaskPageSchema,
  CleanTaskRunResultSchema,
  CleanTaskSchema,
  DataServiceQuerySchema,
  DownloadTemplateInputSchema,
  DownloadTemplatePageSchema,
  DownloadTemplateRunResultSchema,
  DownloadTemplateRunSchema,
  DownloadTemplateSchema,
} from '../schemas/data-service.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const base = '/data-mgmt/tenants/:tenant_id';
const templates = `${base}/download-templates`;
const clean = `${base}/clean-tasks`;

/** Download templates and clean tasks (spec §7 /data-mgmt). */
export const DataServiceRoutes = {
  templates: defineRoute({
    method: 'GET',
    path: templates,
    params: TenantParams,
    query: DataServiceQuerySchema,
    response: DownloadTemplatePageSchema,
    permission: 'data-mgmt:download-template:query',
  }),
  createTemplate: defineRoute({
    method: 'POST',
    path: templates,
    params: TenantParams,
    body: DownloadTemplateInputSchema,
    response: DownloadTemplateSchema,
    permission: 'data-mgmt:download-template:create',
  }),
  template: defineRoute({
    method: 'GET',
    path: `${templates}/:id`,
    params: TenantIdParams,
    response: DownloadTemplateSchema,
    permission: 'data-mgmt:download-template:query',
  }),
  updateTemplate: defineRoute({
    method: 'PUT',
    path: `${templates}/:id`,
    params: TenantIdParams,
    body: DownloadTemplateInputSchema,
    response: DownloadTemplateSchema,
    permission: 'data-mgmt:download-template:update',
  }),
  removeTemplate: defineRoute({
    method: 'DELETE',
    path: `${templates}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'data-mgmt:download-template:delete',
  }),
  /** Starts the template's export on each of its devices (the existing export, one per device). */
  runTemplate: defineRoute({
    method: 'POST',
    path: `${templates}/:id/run`,
    params: TenantIdParams,
    body: DownloadTemplateRunSchema,
    response: DownloadTemplateRunResultSchema,
    permission: 'data-mgmt:things-data:download',
  }),

  cleanTasks: defineRoute({
    method: 'GET',
    path: clean,
    params: TenantParams,
    query: DataServiceQuerySchema,
    response: CleanTaskPageSchema,
    permission: 'data-mgmt:clean-task:query',
  }),
  createCleanTask: defineRoute({
    method: 'POST',
    path: clean,
    params: TenantParams,
    body: CleanTaskInputSchema,
    response: CleanTaskSchema,
    permission: 'data-mgmt:clean-task:create',
  }),
  cleanTask: defineRoute({
    method: 'GET',
    path: `${clean}/:id`,
    params: TenantIdParams,
    response: CleanTaskSchema,
    permission: 'data-mgmt:clean-task:query',
  }),
  updateCleanTask: defineRoute({
    method: 'PUT',
    path: `${clean}/:id`,
    params: TenantIdParams,
    body: CleanTaskInputSchema,
    response: CleanTaskSchema,
    permission: 'data-mgmt:clean-task:update',
  }),
  /** 1 enabled (runs daily on the scheduler), 0 disabled (spec §4: the new status in the path). */
  setCleanTaskStatus: defineRoute({
    method: 'PUT',
    path: `${clean}/:id/status/:status`,
    params: z.object({ tenant_id: UuidSchema, id: UuidSchema, status: z.coerce.number().int().min(0).max(1) }),
    response: CleanTaskSchema,
    permission: 'data-mgmt:clean-task:updateStatus',
  }),
  removeCleanTask: defineRoute({
    method: 'DELETE',
    path: `${clean}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'data-mgmt:clean-task:delete',
  }),
  /** Runs the task now (as the scheduler does daily). */
  runCleanTask: defineRoute({
    method: 'POST',
    path: `${clean}/:id/run`,
    params: TenantIdParams,
    response: CleanTaskRunResultSchema,
    permission: 'data-mgmt:clean-task:execute',
  }),
};
