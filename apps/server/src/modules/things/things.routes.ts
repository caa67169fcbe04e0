import {
  DeviceEventPageSchema,
  DeviceTypeCreateSchema,
  DeviceTypeSchema,
  ErrorResponseSchema,
  TenantIdParamsSchema,
  TenantParamsSchema,
  TenantThingParamsSchema,
  ThingCreateSchema,
  ThingImportResultSchema,
  ThingListQuerySchema,
  ThingPageSchema,
  ThingSchema,
  ThingStatusSchema,
  ThingUpdateSchema,
  VehicleCreateSchema,
  VehiclePageSchema,
  VehicleSchema,
  VehicleUpdateSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { inTenant } from './things.access.ts';
import { thingsService } from './things.service.ts';
import { vehiclesService } from './vehicles.service.ts';

const Tenant = TenantParamsSchema;
const TenantThing = TenantThingParamsSchema;
const TenantId = TenantIdParamsSchema;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['things'];
const base = '/v1/things/tenants/:tenant_id';

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Devices, device types, vehicles, device event log and status (spec §7 things service). */
export async function thingsRoutes(root: LoggerheadApp, ctx: AppContext) {
  // A new key or a deleted device ends the device's MQTT connection at once.
  const svc = thingsService({
    raw: ctx.database.raw,
    onCredentialsChanged: (id) => ctx.ingest.forgetDevice(id),
    // …and every socket reading it stops (live trace and signals, remote operations).
    onRemoved: (tenantId, thingsId) => ctx.events.emit('access.changed', { tenantId, thingsId }),
    assertCanAdd: (auth, resource, current) => ctx.quota.assertCanAdd(auth, resource, current),
  });
  const cars = vehiclesService(ctx.database.raw);

  await root.register(async (scope) => {
    const app = scope as unknown as App;
    // Batch import accepts a CSV body as well as a multipart file.
    app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: 4 * 1024 * 1024 }, (_req, body, done) => done(null, body));

    app.get(
      `${base}/device-types`,
      { config: { permission: 'things:info-model:query' }, schema: { tags, params: Tenant, response: { 200: z.array(DeviceTypeSchema) } } },
      (req) => svc.listTypes(auth(req)),
    );
    app.post(
      `${base}/device-types`,
      {
        config: { permission: 'things:info-model:create' },
        schema: { tags, params: Tenant, body: DeviceTypeCreateSchema, response: { 200: DeviceTypeSchema, ...errors } },
      },
      (req) =>
        svc.createType(auth(req), {
          name: req.body.name,
          display_name: req.body.display_name ?? null,
          description: req.body.description ?? null,
          can_channels: req.body.can_channels,
          thing_type: req.body.thing_type,
        }),
    );

    app.get(
      `${base}/things`,
      {
        config: { permission: 'things:things:page' },
        schema: { tags, params: Tenant, querystring: ThingListQuerySchema, response: { 200: ThingPageSchema, ...errors } },
      },
      (req) => {
        if (req.query.current_page * req.query.page_size > 10_000) throw badRequest('data.over-10000');
        return svc.list(auth(req), req.query);
      },
    );
    app.post(
      `${base}/things`,
      {
        config: { permission: 'things:things:create' },
        schema: { tags, params: Tenant, body: ThingCreateSchema, response: { 200: ThingSchema, ...errors } },
      },
      (req) => svc.create(auth(req), req.body),
    );
    app.get(
      `${base}/things/export`,
      { config: { permission: 'things:things:export' }, schema: { tags, params: Tenant, querystring: ThingListQuerySchema } },
      async (req, reply) => {
        const csv = await svc.exportCsv(auth(req), req.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="devices.csv"')
          .send(`\uFEFF${csv}`);
      },
    );
    app.post(
      `${base}/things/import`,
      {
        config: { permission: 'things:things:import' },
        schema: { tags, params: Tenant, response: { 200: ThingImportResultSchema, ...errors } },
      },
      async (req) => {
        let text: string;
        if (req.isMultipart()) {
          const file = await req.file();
          if (!file) throw badRequest('http.400', 'No file');
          text = (await file.toBuffer()).toString('utf8');
        } else if (typeof req.body === 'string') text = req.body;
        else throw badRequest('http.400', 'Send a CSV file (multipart) or a text/csv body');
        return svc.importCsv(auth(req), text);
      },
    );
    app.get(
      `${base}/things/:things_id`,
      {
        config: { permission: 'things:things:queryone' },
        schema: { tags, params: TenantThing, response: { 200: ThingSchema, ...errors } },
      },
      (req) => svc.get(auth(req), req.params.things_id),
    );
    app.put(
      `${base}/things/:things_id`,
      {
        config: { permission: 'things:things:update' },
        schema: { tags, params: TenantThing, body: ThingUpdateSchema, response: { 200: ThingSchema, ...errors } },
      },
      (req) => svc.update(auth(req), req.params.things_id, req.body),
    );
    app.delete(
      `${base}/things/:things_id`,
      { config: { permission: 'things:things:delete' }, schema: { tags, params: TenantThing } },
      async (req, reply) => {
        await svc.remove(auth(req), req.params.things_id);
        return reply.code(204).send();
      },
    );
    app.put(
      `${base}/things/:things_id/collected`,
      {
        config: { permission: 'things:things:query' },
        schema: { tags, params: TenantThing, body: z.object({ collected: z.boolean() }), response: { 200: ThingSchema, ...errors } },
      },
      (req) => svc.setCollected(auth(req), req.params.things_id, req.body.collected),
    );
    app.post(
      `${base}/things/:things_id/key`,
      { config: { permission: 'things:things:update' }, schema: { tags, params: TenantThing, response: { 200: ThingSchema, ...errors } } },
      (req) => svc.regenerateKey(auth(req), req.params.things_id),
    );
    app.get(
      `${base}/things/:things_id/status`,
      {
        config: { permission: 'things:things:queryone' },
        schema: { tags, params: TenantThing, response: { 200: ThingStatusSchema, ...errors } },
      },
      (req) => svc.status(auth(req), req.params.things_id),
    );
    app.get(
      `${base}/things/:things_id/events`,
      {
        config: { permission: 'things:things:queryone' },
        schema: {
          tags,
          params: TenantThing,
          querystring: z.object({
            current_page: z.coerce.number().int().min(1).default(1),
            page_size: z.coerce.number().int().min(1).max(10000).default(10),
            kind: z.string().max(32).optional(),
          }),
          response: { 200: DeviceEventPageSchema, ...errors },
        },
      },
      (req) => svc.events(auth(req), req.params.things_id, req.query.current_page, req.query.page_size, req.query.kind),
    );

    // Vehicles (CarManager).
    app.get(
      `${base}/vehicles`,
      {
        config: { permission: 'car:car:query' },
        schema: {
          tags,
          params: Tenant,
          querystring: z.object({
            current_page: z.coerce.number().int().min(1).default(1),
            page_size: z.coerce.number().int().min(1).max(10000).default(10),
            keyword: z.string().max(64).optional(),
          }),
          response: { 200: VehiclePageSchema, ...errors },
        },
      },
      (req) => cars.list(auth(req), req.query.current_page, req.query.page_size, req.query.keyword),
    );
    app.post(
      `${base}/vehicles`,
      {
        config: { permission: 'car:car:create' },
        schema: { tags, params: Tenant, body: VehicleCreateSchema, response: { 200: VehicleSchema, ...errors } },
      },
      (req) => cars.create(auth(req), req.body),
    );
    app.get(
      `${base}/vehicles/:id`,
      { config: { permission: 'car:car:query' }, schema: { tags, params: TenantId, response: { 200: VehicleSchema, ...errors } } },
      (req) => cars.get(auth(req), req.params.id),
    );
    app.put(
      `${base}/vehicles/:id`,
      {
        config: { permission: 'car:car:update' },
        schema: { tags, params: TenantId, body: VehicleUpdateSchema, response: { 200: VehicleSchema, ...errors } },
      },
      (req) => cars.update(auth(req), req.params.id, req.body),
    );
    app.delete(
      `${base}/vehicles/:id`,
      { config: { permission: 'car:car:delete' }, schema: { tags, params: TenantId } },
      async (req, reply) => {
        await cars.remove(auth(req), req.params.id);
        return reply.code(204).send();
      },
    );
  });
}
