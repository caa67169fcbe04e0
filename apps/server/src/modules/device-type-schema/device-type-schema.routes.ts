import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { deviceTypeSchemaRepository } from './device-type-schema.repository.ts';
import { deviceTypeSchemaService } from './device-type-schema.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['things'];
const withErrors = { tags, errors };
const noContent = { tags, errors: { 204: z.null(), ...errors } };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Device type data groups and fields (DeviceTypeDetails). */
export function deviceTypeSchemaRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = deviceTypeSchemaService(deviceTypeSchemaRepository(ctx.database.raw));
  const R = Routes.deviceTypeSchema;

  route(app, R.get, withErrors, (req) => svc.get(auth(req), req.params.id));
  route(app, R.createGroup, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.createGroup(auth(req), req.params.id, req.body)),
  );
  route(app, R.updateGroup, withErrors, (req) => svc.updateGroup(auth(req), req.params.id, req.params.group_id, req.body));
  route(app, R.deleteGroup, noContent, async (req, reply) => {
    await svc.deleteGroup(auth(req), req.params.id, req.params.group_id);
    return reply.code(204).send(null);
  });
  route(app, R.createField, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.createField(auth(req), req.params.id, req.params.group_id, req.body)),
  );
  route(app, R.updateField, withErrors, (req) =>
    svc.updateField(auth(req), req.params.id, req.params.group_id, req.params.field_id, req.body),
  );
  route(app, R.deleteField, noContent, async (req, reply) => {
    await svc.deleteField(auth(req), req.params.id, req.params.group_id, req.params.field_id);
    return reply.code(204).send(null);
  });
}
