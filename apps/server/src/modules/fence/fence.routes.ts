import {
  ErrorResponseSchema,
  FenceBindSchema,
  FenceInputSchema,
  FencePageSchema,
  FenceQuerySchema,
  FenceSchema,
  OkSchema,
  TenantIdParamsSchema,
  TenantParamsSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { inTenant } from '../things/things.access.ts';
import { fenceRepository } from './fence.repository.ts';
import { fenceService } from './fence.service.ts';

const Tenant = TenantParamsSchema;
const TenantId = TenantIdParamsSchema;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['fence'];
const base = '/v1/fence/tenants/:tenant_id/fences';

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** E-fences (EFenceManager): list, create, get, update, bind devices, delete. */
export function fenceRoutes(app: LoggerheadApp, ctx: AppContext) {
  const fences = fenceService(ctx.database.raw, fenceRepository(ctx.database.raw), ctx.events);
  app.get(
    base,
    {
      config: { permission: 'fence:fence:query' },
      schema: { tags, params: Tenant, querystring: FenceQuerySchema, response: { 200: FencePageSchema, ...errors } },
    },
    (req) => fences.list(auth(req), req.query),
  );
  app.post(
    base,
    {
      config: { permission: 'fence:fence:create' },
      schema: { tags, params: Tenant, body: FenceInputSchema, response: { 200: FenceSchema, ...errors } },
    },
    (req) => fences.create(auth(req), req.body),
  );
  app.get(
    `${base}/:id`,
    { config: { permission: 'fence:fence:query' }, schema: { tags, params: TenantId, response: { 200: FenceSchema, ...errors } } },
    (req) => fences.get(auth(req), req.params.id),
  );
  app.put(
    `${base}/:id`,
    {
      config: { permission: 'fence:fence:update' },
      schema: { tags, params: TenantId, body: FenceInputSchema, response: { 200: FenceSchema, ...errors } },
    },
    (req) => fences.update(auth(req), req.params.id, req.body),
  );
  app.put(
    `${base}/:id/things`,
    {
      config: { permission: 'fence:fence:update' },
      schema: { tags, params: TenantId, body: FenceBindSchema, response: { 200: FenceSchema, ...errors } },
    },
    (req) => fences.bind(auth(req), req.params.id, req.body.things_ids),
  );
  app.delete(
    `${base}/:id`,
    { config: { permission: 'fence:fence:delete' }, schema: { tags, params: TenantId, response: { 200: OkSchema, ...errors } } },
    async (req) => {
      await fences.remove(auth(req), req.params.id);
      return { ok: true as const };
    },
  );
}
