import {
  BackfillSchema,
  ChannelBindingSchema,
  ChannelBindSchema,
  ChannelStateSchema,
  DBC_MAX_BYTES,
  DbcFieldsSchema,
  DbcFilePageSchema,
  DbcFileSchema,
  DbcListQuerySchema,
  DbcMessageInfoSchema,
  DbcMessagesQuerySchema,
  ErrorResponseSchema,
  MappingCodes,
  StrategyCreateSchema,
  StrategyListQuerySchema,
  StrategyPageSchema,
  StrategySchema,
  StrategyUpdateSchema,
  TenantIdParamsSchema,
  TenantParamsSchema,
  TenantThingParamsSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import { inTenant } from '../things/things.access.ts';
import { bindingsService } from './bindings.service.ts';
import { mappingRepository } from './mapping.repository.ts';
import { type DbcUpload, mappingService } from './mapping.service.ts';

const Tenant = TenantParamsSchema;
const TenantId = TenantIdParamsSchema;
const TenantThing = TenantThingParamsSchema;
const TenantChannel = TenantThing.extend({ channel: z.coerce.number().int().min(0).max(255) });
const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  413: ErrorResponseSchema,
};
const tags = ['mapping'];
const base = '/v1/mapping-mgmt/tenants/:tenant_id';

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** The `.dbc` file part and the form fields of a multipart request (or the JSON body's fields). */
async function readUpload(req: FastifyRequest): Promise<{ file: DbcUpload | null; fields: { name?: string; protocol?: number } }> {
  const raw: Record<string, unknown> = {};
  let file: DbcUpload | null = null;
  if (req.isMultipart()) {
    for await (const part of req.parts({ limits: { fileSize: DBC_MAX_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        try {
          file = { fileName: part.filename, bytes: await part.toBuffer() };
        } catch (e) {
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ApiError(413, 'mapping.dbc-too-large', MappingCodes['mapping.dbc-too-large'], { field: 'file' });
          throw e;
        }
      } else raw[part.fieldname] = part.value;
    }
  } else if (req.body && typeof req.body === 'object') Object.assign(raw, req.body);
  const parsed = DbcFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest('http.400', `${issue.path.join('.')}: ${issue.message}`, issue.path.join('.'));
  }
  return { file, fields: parsed.data };
}

/** DBC files, signal strategies and channel bindings (spec §7 mapping-mgmt, §4 DBC parsing). */
export async function mappingRoutes(app: LoggerheadApp, ctx: AppContext) {
  const repo = mappingRepository(ctx.database.raw);
  const svc = mappingService(
    repo,
    (ids) => {
      for (const id of ids) ctx.signals.invalidate(id);
    },
    ctx.database.raw,
  );
  const bindings = bindingsService(ctx.database.raw, repo, {
    changed: (id) => ctx.signals.invalidate(id),
    clearChannel: (tenantId, thingsId, channel) => ctx.signals.clearChannel(tenantId, thingsId, channel),
    backfill: ctx.signals.backfill,
  });

  app.get(
    `${base}/dbc-files`,
    {
      config: { permission: 'mapping:dbc:query' },
      schema: { tags, params: Tenant, querystring: DbcListQuerySchema, response: { 200: DbcFilePageSchema, ...errors } },
    },
    (req) => svc.listDbc(auth(req), req.query),
  );
  app.post(
    `${base}/dbc-files`,
    { config: { permission: 'mapping:dbc:create' }, schema: { tags, params: Tenant, response: { 200: DbcFileSchema, ...errors } } },
    async (req) => {
      const a = auth(req);
      const { file, fields } = await readUpload(req);
      if (!file) throw badRequest('http.400', 'Send the .dbc file as multipart field "file"', 'file');
      return svc.createDbc(a, file, fields);
    },
  );
  app.get(
    `${base}/dbc-files/:id`,
    { config: { permission: 'mapping:dbc:query' }, schema: { tags, params: TenantId, response: { 200: DbcFileSchema, ...errors } } },
    (req) => svc.getDbc(auth(req), req.params.id),
  );
  app.put(
    `${base}/dbc-files/:id`,
    { config: { permission: 'mapping:dbc:update' }, schema: { tags, params: TenantId, response: { 200: DbcFileSchema, ...errors } } },
    async (req) => {
      const a = auth(req);
      const { file, fields } = await readUpload(req);
      return svc.updateDbc(a, req.params.id, file, fields);
    },
  );
  app.delete(
    `${base}/dbc-files/:id`,
    { config: { permission: 'mapping:dbc:delete' }, schema: { tags, params: TenantId } },
    async (req, reply) => {
      await svc.deleteDbc(auth(req), req.params.id);
      return reply.code(204).send();
    },
  );
  app.get(
    `${base}/dbc-files/:id/messages`,
    {
      config: { permission: 'mapping:dbc:query' },
      schema: { tags, params: TenantId, querystring: DbcMessagesQuerySchema, response: { 200: z.array(DbcMessageInfoSchema), ...errors } },
    },
    (req) => svc.messages(auth(req), req.params.id, req.query.keyword),
  );
  app.get(
    `${base}/dbc-files/:id/content`,
    { config: { permission: 'mapping:dbc:query' }, schema: { tags, params: TenantId } },
    async (req, reply) => {
      const f = await svc.content(auth(req), req.params.id);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${f.file_name.replace(/[^\w.-]/g, '_')}"`)
        .send(f.content);
    },
  );

  app.get(
    `${base}/signal-strategies`,
    {
      config: { permission: 'mapping:dbc:query' },
      schema: { tags, params: Tenant, querystring: StrategyListQuerySchema, response: { 200: StrategyPageSchema, ...errors } },
    },
    (req) => svc.listStrategies(auth(req), req.query),
  );
  app.post(
    `${base}/signal-strategies`,
    {
      config: { permission: 'mapping:dbc:create' },
      schema: { tags, params: Tenant, body: StrategyCreateSchema, response: { 200: StrategySchema, ...errors } },
    },
    (req) => svc.createStrategy(auth(req), req.body),
  );
  app.get(
    `${base}/signal-strategies/:id`,
    { config: { permission: 'mapping:dbc:query' }, schema: { tags, params: TenantId, response: { 200: StrategySchema, ...errors } } },
    (req) => svc.getStrategy(auth(req), req.params.id),
  );
  app.put(
    `${base}/signal-strategies/:id`,
    {
      config: { permission: 'mapping:dbc:update' },
      schema: { tags, params: TenantId, body: StrategyUpdateSchema, response: { 200: StrategySchema, ...errors } },
    },
    (req) => svc.updateStrategy(auth(req), req.params.id, req.body),
  );
  app.delete(
    `${base}/signal-strategies/:id`,
    { config: { permission: 'mapping:dbc:delete' }, schema: { tags, params: TenantId } },
    async (req, reply) => {
      await svc.deleteStrategy(auth(req), req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    `${base}/things/:things_id/dbc-bindings`,
    {
      config: { permission: 'mapping:dbc:query' },
      schema: { tags, params: TenantThing, response: { 200: z.array(ChannelBindingSchema), ...errors } },
    },
    (req) => bindings.list(auth(req), req.params.things_id),
  );
  const binding = `${base}/things/:things_id/channels/:channel/dbc-binding`;
  app.get(
    binding,
    {
      config: { permission: 'mapping:dbc:query' },
      schema: { tags, params: TenantChannel, response: { 200: ChannelBindingSchema, ...errors } },
    },
    (req) => bindings.get(auth(req), req.params.things_id, req.params.channel),
  );
  app.put(
    binding,
    {
      config: { permission: 'mapping:dbc:bind' },
      schema: { tags, params: TenantChannel, body: ChannelBindSchema, response: { 200: ChannelBindingSchema, ...errors } },
    },
    (req) => bindings.bind(auth(req), req.params.things_id, req.params.channel, req.body),
  );
  app.put(
    `${binding}/state`,
    {
      config: { permission: 'mapping:dbc:updateStatus' },
      schema: { tags, params: TenantChannel, body: ChannelStateSchema, response: { 200: ChannelBindingSchema, ...errors } },
    },
    (req) => bindings.setState(auth(req), req.params.things_id, req.params.channel, req.body.state, req.body.backfill),
  );
  app.get(
    `${binding}/backfill`,
    {
      config: { permission: 'mapping:dbc:query' },
      schema: { tags, params: TenantChannel, response: { 200: BackfillSchema.nullable(), ...errors } },
    },
    (req) => bindings.backfill(auth(req), req.params.things_id, req.params.channel),
  );
  app.delete(
    `${binding}/backfill`,
    { config: { permission: 'mapping:dbc:updateStatus' }, schema: { tags, params: TenantChannel } },
    async (req, reply) => {
      await bindings.stopBackfill(auth(req), req.params.things_id, req.params.channel);
      return reply.code(204).send();
    },
  );
  app.delete(binding, { config: { permission: 'mapping:dbc:unbind' }, schema: { tags, params: TenantChannel } }, async (req, reply) => {
    await bindings.unbind(auth(req), req.params.things_id, req.params.channel);
    return reply.code(204).send();
  });
}
