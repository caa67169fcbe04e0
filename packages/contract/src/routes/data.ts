import { z } from 'zod';
import { QuickDeleteRequestSchema, QuickDeleteTaskPageSchema, QuickDeleteTaskSchema } from '../schemas/billing.ts';
import { PageQuerySchema } from '../schemas/common.ts';
import { DownloadCreateSchema, DownloadProgressSchema, FramesPageSchema, FramesQuerySchema, UploadResultSchema } from '../schemas/data.ts';
import { DeviceIdParams, DeviceParams, defineRoute, TenantIdParams, TenantParams } from './define.ts';

const device = '/data-mgmt/tenants/:tenant_id/things/:things_id';
const quickDelete = '/data-mgmt/tenants/:tenant_id/quick-delete-tasks';

/** Raw frame history, exports, log uploads and quick-delete tasks (spec §7 data service). */
export const DataRoutes = {
  frames: defineRoute({
    method: 'GET',
    path: `${device}/frames`,
    params: DeviceParams,
    query: FramesQuerySchema,
    response: FramesPageSchema,
    permission: 'data-mgmt:things-data:query',
  }),
  createDownload: defineRoute({
    method: 'POST',
    path: `${device}/downloads`,
    params: DeviceParams,
    body: DownloadCreateSchema,
    response: z.object({ id: z.string() }),
    permission: 'data-mgmt:things-data:download',
  }),
  download: defineRoute({
    method: 'GET',
    path: `${device}/downloads/:id`,
    params: DeviceIdParams,
    response: DownloadProgressSchema,
    permission: 'data-mgmt:things-data:download',
  }),
  /** The exported file (no JSON answer). */
  downloadFile: defineRoute({
    method: 'GET',
    path: `${device}/downloads/:id/file`,
    params: DeviceIdParams,
    permission: 'data-mgmt:things-data:download',
  }),
  /** 204. */
  cancelDownload: defineRoute({
    method: 'DELETE',
    path: `${device}/downloads/:id`,
    params: DeviceIdParams,
    permission: 'data-mgmt:things-data:download',
  }),
  /** Body: the log as a multipart file (any format the server reads, gzip too). */
  upload: defineRoute({
    method: 'POST',
    path: `${device}/uploads`,
    params: DeviceParams,
    query: z.object({ start_time: z.coerce.number().int().min(0).optional() }),
    response: UploadResultSchema,
    permission: 'data-mgmt:things-data:import',
  }),

  /** Spec §7 quick-delete task (tenant, delete_children, things_id), with the re-entered password. */
  createQuickDelete: defineRoute({
    method: 'POST',
    path: quickDelete,
    params: TenantParams,
    body: QuickDeleteRequestSchema,
    response: QuickDeleteTaskSchema,
    status: 201,
    permission: 'data-mgmt:things-data:delete',
  }),
  quickDeletes: defineRoute({
    method: 'GET',
    path: quickDelete,
    params: TenantParams,
    query: PageQuerySchema,
    response: QuickDeleteTaskPageSchema,
    permission: 'data-mgmt:things-data:query',
  }),
  quickDelete: defineRoute({
    method: 'GET',
    path: `${quickDelete}/:id`,
    params: TenantIdParams,
    response: QuickDeleteTaskSchema,
    permission: 'data-mgmt:things-data:query',
  }),
};
