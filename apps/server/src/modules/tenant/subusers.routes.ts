import {
  CreateSubUserRequestSchema,
  ErrorResponseSchema,
  pageOf,
  ResetSubUserPasswordRequestSchema,
  SubUserListQuerySchema,
  SubUserSchema,
  UpdateSubUserRequestSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { SubUsersService } from './subusers.service.ts';

const tags = ['sub-users'];
const TenantParams = z.object({ tenant_id: z.guid() });
const UserParams = z.object({ tenant_id: z.guid(), user_id: z.guid() });
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };

/** Sub-user management (spec §7 /tenant/tenants/{tenant_id}/users): the tenant manager only. */
export function subUsersRoutes(app: LoggerheadApp, svc: SubUsersService) {
  const base = '/v1/tenant/tenants/:tenant_id/users';
  app.get(
    base,
    {
      config: { permission: 'tenant:user:query' },
      schema: { tags, params: TenantParams, querystring: SubUserListQuerySchema, response: { 200: pageOf(SubUserSchema), ...errors } },
    },
    (req) => svc.list(requireAuth(req.auth), req.params.tenant_id, req.query),
  );
  app.post(
    base,
    {
      config: { permission: 'tenant:user:create' },
      schema: { tags, params: TenantParams, body: CreateSubUserRequestSchema, response: { 201: SubUserSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await svc.create(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );
  app.get(
    `${base}/:user_id`,
    { config: { permission: 'tenant:user:query' }, schema: { tags, params: UserParams, response: { 200: SubUserSchema, ...errors } } },
    (req) => svc.get(requireAuth(req.auth), req.params.tenant_id, req.params.user_id),
  );
  app.put(
    `${base}/:user_id`,
    {
      config: { permission: 'tenant:user:update' },
      schema: { tags, params: UserParams, body: UpdateSubUserRequestSchema, response: { 200: SubUserSchema, ...errors } },
    },
    (req) => svc.update(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.body),
  );
  app.delete(
    `${base}/:user_id`,
    { config: { permission: 'tenant:user:delete' }, schema: { tags, params: UserParams } },
    async (req, reply) => {
      await svc.remove(requireAuth(req.auth), req.params.tenant_id, req.params.user_id);
      return reply.code(204).send();
    },
  );
  app.post(
    `${base}/:user_id/reset-password`,
    { config: { permission: 'tenant:user:reset-password' }, schema: { tags, params: UserParams, body: ResetSubUserPasswordRequestSchema } },
    async (req, reply) => {
      await svc.resetPassword(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.body?.password);
      return reply.code(204).send();
    },
  );
}
