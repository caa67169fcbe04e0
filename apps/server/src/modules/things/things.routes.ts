import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { projectNarrowing } from '../project/project.narrowing.ts';
import { inTenant } from './things.access.ts';
import { thingsService } from './things.service.ts';
import { vehiclesService } from './vehicles.service.ts';

const R = Routes.things;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['things'];
const withErrors = { tags, errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Devices, device types, vehicles, device event log and status (spec §7 things service). */
export async function thingsRoutes(root: LoggerheadApp, ctx: AppContext) {
  // A new key or a deleted device ends the device's MQTT connection at once.
  const svc = thingsService({
    raw: ctx.database.raw,
    onCredentialsChanged: (id) => ctx.ingest.forgetDevice(id),
    onParentChanged: (id) => ctx.ingest.devices.forget(id),
    // …and every socket reading it stops (live trace and signals, remote operations).
    onRemoved: (tenantId, thingsId) => ctx.events.emit('access.changed', { tenantId, thingsId }),
    assertCanAdd: (auth, resource, current) => ctx.quota.assertCanAdd(auth, resource, current),
  });
  const cars = vehiclesService(ctx.database.raw, projectNarrowing(ctx));

  await root.register(async (scope) => {
    const app = scope as unknown as App;
    // Batch import accepts a CSV body as well as a multipart file.
    app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: 4 * 1024 * 1024 }, (_req, body, done) => done(null, body));

    route(app, R.types, { tags }, (req) => svc.listTypes(auth(req)));
    route(app, R.createType, withErrors, (req) =>
      svc.createType(auth(req), {
        name: req.body.name,
        display_name: req.body.display_name ?? null,
        description: req.body.description ?? null,
        can_channels: req.body.can_channels,
        thing_type: req.body.thing_type,
      }),
    );

    route(app, R.list, withErrors, (req) => {
      if (req.query.current_page * req.query.page_size > 10_000) throw badRequest('data.over-10000');
      return svc.list(auth(req), req.query);
    });
    route(app, R.create, withErrors, (req) => svc.create(auth(req), req.body));
    route(app, R.export, { tags }, async (req, reply) => {
      const csv = await svc.exportCsv(auth(req), req.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="devices.csv"')
        .send(`\uFEFF${csv}`);
    });
    route(app, R.import, withErrors, async (req) => {
      let text: string;
      if (req.isMultipart()) {
        const file = await req.file();
        if (!file) throw badRequest('http.400', 'No file');
        text = (await file.toBuffer()).toString('utf8');
      } else if (typeof req.body === 'string') text = req.body;
      else throw badRequest('http.400', 'Send a CSV file (multipart) or a text/csv body');
      return svc.importCsv(auth(req), text);
    });
    route(app, R.gateways, withErrors, (req) => {
      if (req.query.current_page * req.query.page_size > 10_000) throw badRequest('data.over-10000');
      return svc.gateways(auth(req), req.query);
    });
    route(app, R.children, withErrors, (req) => {
      if (req.query.current_page * req.query.page_size > 10_000) throw badRequest('data.over-10000');
      return svc.children(auth(req), req.params.things_id, req.query);
    });
    route(app, R.addChildren, withErrors, (req) => svc.addChildren(auth(req), req.params.things_id, req.body.things_ids));
    route(app, R.removeChild, { tags }, async (req, reply) => {
      await svc.removeChild(auth(req), req.params.things_id, req.params.child_id);
      return reply.code(204).send();
    });
    route(app, R.parents, withErrors, (req) => svc.parents(auth(req), req.params.things_id));
    route(app, R.get, withErrors, (req) => svc.get(auth(req), req.params.things_id));
    route(app, R.update, withErrors, (req) => svc.update(auth(req), req.params.things_id, req.body));
    route(app, R.remove, { tags }, async (req, reply) => {
      await svc.remove(auth(req), req.params.things_id);
      return reply.code(204).send();
    });
    route(app, R.setCollected, withErrors, (req) => svc.setCollected(auth(req), req.params.things_id, req.body.collected));
    route(app, R.regenerateKey, withErrors, (req) => svc.regenerateKey(auth(req), req.params.things_id));
    route(app, R.status, withErrors, (req) => svc.status(auth(req), req.params.things_id));
    route(app, R.events, withErrors, (req) =>
      svc.events(auth(req), req.params.things_id, req.query.current_page, req.query.page_size, req.query.kind),
    );

    // Vehicles (CarManager).
    route(app, R.vehicles, withErrors, (req) => cars.list(auth(req), req.query.current_page, req.query.page_size, req.query.keyword));
    route(app, R.createVehicle, withErrors, (req) => cars.create(auth(req), req.body));
    route(app, R.vehicle, withErrors, (req) => cars.get(auth(req), req.params.id));
    route(app, R.updateVehicle, withErrors, (req) => cars.update(auth(req), req.params.id, req.body));
    route(app, R.removeVehicle, { tags }, async (req, reply) => {
      await cars.remove(auth(req), req.params.id);
      return reply.code(204).send();
    });
  });
}
