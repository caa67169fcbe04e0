import {
  CommandSchema,
  RecallBatchRequestSchema,
  RecallDeleteRequestSchema,
  RecalledFileSchema,
  RecallFileRequestSchema,
  RecallListRequestSchema,
  RecallListResultSchema,
  RecallTaskSchema,
  TenantParamsSchema,
  TenantThingParamsSchema,
  UuidSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import type { RecallService } from './recall.service.ts';

const Tenant = TenantParamsSchema;
const TenantThing = TenantThingParamsSchema;
const TenantThingId = TenantThing.extend({ id: UuidSchema });
const tags = ['recall'];
const base = '/v1/things/tenants/:tenant_id/things/:things_id/recall';
/** A device uploads a file in parts of at most this size. */
export const MAX_UPLOAD_PART = 4 * 1024 * 1024;

/** Spec §4 file recall and §7 file manager paths for recalled files. */
export async function recallRoutes(root: LoggerheadApp, svc: RecallService) {
  const app = root as unknown as App;
  app.post(
    `${base}/list`,
    {
      config: { permission: 'things:things:command' },
      schema: { tags, params: TenantThing, body: RecallListRequestSchema, response: { 200: RecallListResultSchema, ...errors } },
    },
    (req) => svc.list(tenantAuth(req), req.params.things_id, req.body),
  );
  app.get(
    `${base}/list/:correlation_id`,
    {
      config: { permission: 'things:message:query' },
      schema: {
        tags,
        params: TenantThing.extend({ correlation_id: z.string().max(64) }),
        response: { 200: RecallListResultSchema, ...errors },
      },
    },
    (req) => svc.listResult(tenantAuth(req), req.params.things_id, req.params.correlation_id),
  );
  app.post(
    `${base}/files`,
    {
      config: { permission: 'things:things:command' },
      schema: { tags, params: TenantThing, body: RecallFileRequestSchema, response: { 200: RecallTaskSchema, ...errors } },
    },
    (req) => svc.recall(tenantAuth(req), req.params.things_id, req.body),
  );
  app.post(
    `${base}/batch`,
    {
      config: { permission: 'things:things:command' },
      schema: {
        tags,
        params: TenantThing,
        body: RecallBatchRequestSchema,
        response: { 200: z.object({ batch_id: z.string(), tasks: z.array(RecallTaskSchema) }), ...errors },
      },
    },
    (req) => svc.batch(tenantAuth(req), req.params.things_id, req.body.files),
  );
  app.get(
    `${base}/tasks`,
    {
      config: { permission: 'things:message:query' },
      schema: {
        tags,
        params: TenantThing,
        querystring: z.object({ batch_id: z.string().uuid().optional() }),
        response: { 200: z.array(RecallTaskSchema), ...errors },
      },
    },
    (req) => svc.tasks(tenantAuth(req), req.params.things_id, req.query.batch_id ?? null),
  );
  app.get(
    `${base}/tasks/:id`,
    {
      config: { permission: 'things:message:query' },
      schema: { tags, params: TenantThingId, response: { 200: RecallTaskSchema, ...errors } },
    },
    (req) => svc.task(tenantAuth(req), req.params.things_id, req.params.id),
  );
  app.post(
    `${base}/tasks/:id/cancel`,
    {
      config: { permission: 'things:things:command' },
      schema: { tags, params: TenantThingId, response: { 200: RecallTaskSchema, ...errors } },
    },
    (req) => svc.cancel(tenantAuth(req), req.params.things_id, req.params.id),
  );
  app.post(
    `${base}/device-files/delete`,
    {
      config: { permission: 'things:things:command' },
      schema: { tags, params: TenantThing, body: RecallDeleteRequestSchema, response: { 200: CommandSchema, ...errors } },
    },
    (req) => svc.deleteOnDevice(tenantAuth(req), req.params.things_id, req.body.filter.name, req.body.size),
  );

  // Recalled files (file manager).
  app.get(
    '/v1/filemanager/tenants/:tenant_id/files',
    {
      config: { permission: 'things:things:query' },
      schema: {
        tags,
        params: Tenant,
        querystring: z.object({ things_id: z.string().uuid().optional() }),
        response: { 200: z.array(RecalledFileSchema), ...errors },
      },
    },
    (req) => svc.files(tenantAuth(req), req.query.things_id ?? null),
  );
  app.get(
    '/v1/filemanager/tenants/:tenant_id/files/url',
    {
      config: { permission: 'data-mgmt:things-data:download' },
      schema: {
        tags,
        params: Tenant,
        querystring: z.object({ name: z.string().min(1).max(300), type: z.literal('dev').default('dev') }),
        response: { 200: z.object({ url: z.string(), size: z.number().int() }), ...errors },
      },
    },
    async (req) => {
      const f = await svc.open(tenantAuth(req), req.query.name);
      f.stream.destroy();
      return { url: `/v1/filemanager/upload/commonfile/${encodeURIComponent(f.file.name)}`, size: f.file.size };
    },
  );
  app.get(
    '/v1/filemanager/upload/commonfile/:name',
    { config: { permission: 'data-mgmt:things-data:download' }, schema: { tags, params: z.object({ name: z.string().max(300) }) } },
    async (req, reply) => {
      const f = await svc.open(requireAuth(req.auth), req.params.name);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', f.file.size)
        .header('content-disposition', `attachment; filename="${f.file.name.replace(/[^\w.-]/g, '_')}"`)
        .send(f.stream);
    },
  );
  app.delete(
    '/v1/out-filemanager/tenants/:tenant_id/files',
    {
      config: { permission: 'data-mgmt:things-data:delete' },
      schema: { tags, params: Tenant, querystring: z.object({ name: z.string().min(1).max(300), type: z.string().optional() }) },
    },
    async (req, reply) => {
      await svc.remove(tenantAuth(req), req.query.name);
      return reply.code(204).send();
    },
  );
  app.post(
    '/v1/filemanager/tenants/:tenant_id/files/import',
    {
      config: { permission: 'data-mgmt:things-data:import' },
      schema: { tags, params: Tenant, body: z.object({ name: z.string().min(1).max(300) }) },
    },
    (req) => svc.importToHistory(tenantAuth(req), req.body.name),
  );

  // The device's upload endpoint: the one-time token in the URL is its only credential.
  await root.register(async (scope) => {
    const s = scope as unknown as App;
    s.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_PART }, (_req, body, done) =>
      done(null, body),
    );
    const Token = z.object({ token: z.string().regex(/^[0-9a-f]{48}$/) });
    const Part = z.object({ offset: z.coerce.number().int().min(0).default(0), total: z.coerce.number().int().min(0).optional() });
    const put = async (req: { params: { token: string }; query: { offset: number; total?: number }; body: unknown }) =>
      svc.upload(req.params.token, req.query.offset, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.query.total ?? null);
    s.put(
      '/v1/filemanager/recall-upload/:token',
      { config: { public: true, noOpLog: true }, schema: { tags, params: Token, querystring: Part } },
      put,
    );
    s.post(
      '/v1/filemanager/recall-upload/:token',
      { config: { public: true, noOpLog: true }, schema: { tags, params: Token, querystring: Part } },
      put,
    );
    s.get('/v1/filemanager/recall-upload/:token', { config: { public: true }, schema: { tags, params: Token } }, (req) =>
      svc.uploadStatus(req.params.token),
    );
  });
}
