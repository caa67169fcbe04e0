import { z } from 'zod';
import { CommandSchema } from '../schemas/command.ts';
import {
  RecallBatchRequestSchema,
  RecallDeleteRequestSchema,
  RecalledFileSchema,
  RecallFileRequestSchema,
  RecallListRequestSchema,
  RecallListResultSchema,
  RecallTaskSchema,
} from '../schemas/recall.ts';
import { DeviceIdParams, DeviceParams, defineRoute, TenantParams } from './define.ts';

const base = '/things/tenants/:tenant_id/things/:things_id/recall';
const files = '/filemanager/tenants/:tenant_id/files';

/** The one-time token of a device's upload URL. */
const UploadTokenParams = z.object({ token: z.string().regex(/^[0-9a-f]{48}$/) });
/** Where a part of the upload goes and how large the whole file is. */
const UploadPartQuery = z.object({ offset: z.coerce.number().int().min(0).default(0), total: z.coerce.number().int().min(0).optional() });

/** Spec §4 file recall and §7 file manager paths for recalled files. */
export const RecallRoutes = {
  /** Asks the device for its SD-card list (a command; the answer may come later, see `listResult`). */
  list: defineRoute({
    method: 'POST',
    path: `${base}/list`,
    params: DeviceParams,
    body: RecallListRequestSchema,
    response: RecallListResultSchema,
    permission: 'things:things:command',
  }),
  listResult: defineRoute({
    method: 'GET',
    path: `${base}/list/:correlation_id`,
    params: DeviceParams.extend({ correlation_id: z.string().max(64) }),
    response: RecallListResultSchema,
    permission: 'things:message:query',
  }),
  recall: defineRoute({
    method: 'POST',
    path: `${base}/files`,
    params: DeviceParams,
    body: RecallFileRequestSchema,
    response: RecallTaskSchema,
    permission: 'things:things:command',
  }),
  batch: defineRoute({
    method: 'POST',
    path: `${base}/batch`,
    params: DeviceParams,
    body: RecallBatchRequestSchema,
    response: z.object({ batch_id: z.string(), tasks: z.array(RecallTaskSchema) }),
    permission: 'things:things:command',
  }),
  tasks: defineRoute({
    method: 'GET',
    path: `${base}/tasks`,
    params: DeviceParams,
    query: z.object({ batch_id: z.string().uuid().optional() }),
    response: z.array(RecallTaskSchema),
    permission: 'things:message:query',
  }),
  task: defineRoute({
    method: 'GET',
    path: `${base}/tasks/:id`,
    params: DeviceIdParams,
    response: RecallTaskSchema,
    permission: 'things:message:query',
  }),
  cancel: defineRoute({
    method: 'POST',
    path: `${base}/tasks/:id/cancel`,
    params: DeviceIdParams,
    response: RecallTaskSchema,
    permission: 'things:things:command',
  }),
  deleteOnDevice: defineRoute({
    method: 'POST',
    path: `${base}/device-files/delete`,
    params: DeviceParams,
    body: RecallDeleteRequestSchema,
    response: CommandSchema,
    permission: 'things:things:command',
  }),

  // Recalled files (file manager).
  files: defineRoute({
    method: 'GET',
    path: files,
    params: TenantParams,
    query: z.object({ things_id: z.string().uuid().optional() }),
    response: z.array(RecalledFileSchema),
    permission: 'things:things:query',
  }),
  fileUrl: defineRoute({
    method: 'GET',
    path: `${files}/url`,
    params: TenantParams,
    query: z.object({ name: z.string().min(1).max(300), type: z.literal('dev').default('dev') }),
    response: z.object({ url: z.string(), size: z.number().int() }),
    permission: 'data-mgmt:things-data:download',
  }),
  /** The file itself (no JSON answer). */
  download: defineRoute({
    method: 'GET',
    path: '/filemanager/upload/commonfile/:name',
    params: z.object({ name: z.string().max(300) }),
    permission: 'data-mgmt:things-data:download',
  }),
  /** Answers 204. */
  remove: defineRoute({
    method: 'DELETE',
    path: '/out-filemanager/tenants/:tenant_id/files',
    params: TenantParams,
    query: z.object({ name: z.string().min(1).max(300), type: z.string().optional() }),
    permission: 'data-mgmt:things-data:delete',
  }),
  importToHistory: defineRoute({
    method: 'POST',
    path: `${files}/import`,
    params: TenantParams,
    body: z.object({ name: z.string().min(1).max(300) }),
    permission: 'data-mgmt:things-data:import',
  }),

  // The device's upload endpoint: the one-time token in the URL and the device's proof of it
  // (header X-Device-Proof: HMAC-SHA256 of the token under the device key).
  /** Body: a part of the file (`application/octet-stream`). */
  uploadPut: defineRoute({
    method: 'PUT',
    path: '/filemanager/recall-upload/:token',
    params: UploadTokenParams,
    query: UploadPartQuery,
    public: true,
  }),
  uploadPost: defineRoute({
    method: 'POST',
    path: '/filemanager/recall-upload/:token',
    params: UploadTokenParams,
    query: UploadPartQuery,
    public: true,
  }),
  uploadStatus: defineRoute({
    method: 'GET',
    path: '/filemanager/recall-upload/:token',
    params: UploadTokenParams,
    public: true,
  }),
};
