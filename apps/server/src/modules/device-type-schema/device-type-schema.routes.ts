import { ErrorResponseSchema, TenantIdParamsSchema, UuidSchema } from '@loggerhead/contract';
import {
  DataFieldInputSchema,
  DataFieldSchema,
  DataFieldUpdateSchema,
  DataGroupInputSchema,
  DataGroupSchema,
  DataGroupUpdateSchema,
  DeviceTypeDataSchemaSchema,
} from '@loggerhead/contract/schemas/device-type-schema.ts';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { inTenant } from '../things/things.access.ts';
import { deviceTypeSchemaRepository } from './device-type-schema.repository.ts';
import { deviceTypeSchemaService } from './device-type-schema.service.ts';

const Type = TenantIdParamsSchema;
const Group = Type.extend({ group_id: UuidSchema });
const Field = Group.extend({ field_id: UuidSchema });
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['things'];
const base = '/v1/things/tenants/:tenant_id/device-types/:id/schema';
const query = { permission: 'things:info-model:query' } satisfies FastifyContextConfig;
const update = { permission: 'things:info-model:update' } satisfies FastifyContextConfig;

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Device type data groups and fields (DeviceTypeDetails). */
export function deviceTypeSchemaRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = deviceTypeSchemaService(deviceTypeSchemaRepository(ctx.database.raw));

  app.get(base, { config: query, schema: { tags, params: Type, response: { 200: DeviceTypeDataSchemaSchema, ...errors } } }, (req) =>
    svc.get(auth(req), req.params.id),
  );
  app.post(
    `${base}/groups`,
    { config: update, schema: { tags, params: Type, body: DataGroupInputSchema, response: { 201: DataGroupSchema, ...errors } } },
    async (req, reply) => reply.code(201).send(await svc.createGroup(auth(req), req.params.id, req.body)),
  );
  app.put(
    `${base}/groups/:group_id`,
    { config: update, schema: { tags, params: Group, body: DataGroupUpdateSchema, response: { 200: DataGroupSchema, ...errors } } },
    (req) => svc.updateGroup(auth(req), req.params.id, req.params.group_id, req.body),
  );
  app.delete(
    `${base}/groups/:group_id`,
    { config: update, schema: { tags, params: Group, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await svc.deleteGroup(auth(req), req.params.id, req.params.group_id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    `${base}/groups/:group_id/fields`,
    { config: update, schema: { tags, params: Group, body: DataFieldInputSchema, response: { 201: DataFieldSchema, ...errors } } },
    async (req, reply) => reply.code(201).send(await svc.createField(auth(req), req.params.id, req.params.group_id, req.body)),
  );
  app.put(
    `${base}/groups/:group_id/fields/:field_id`,
    { config: update, schema: { tags, params: Field, body: DataFieldUpdateSchema, response: { 200: DataFieldSchema, ...errors } } },
    (req) => svc.updateField(auth(req), req.params.id, req.params.group_id, req.params.field_id, req.body),
  );
  app.delete(
    `${base}/groups/:group_id/fields/:field_id`,
    { config: update, schema: { tags, params: Field, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await svc.deleteField(auth(req), req.params.id, req.params.group_id, req.params.field_id);
      return reply.code(204).send(null);
    },
  );
}
