import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import type { RulesService } from './rules.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['alert'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Trigger rules (spec §7 alert-mgmt): list, create, get, update, status, delete, import, export. */
export function alertRoutes(app: LoggerheadApp, rules: RulesService) {
  const R = Routes.alert;
  route(app, R.list, withErrors, (req) =>
    rules.list(
      auth(req),
      { thingsId: req.query.things_id, name: req.query.name, status: req.query.status, dataType: req.query.data_type },
      req.query.current_page,
      req.query.page_size,
    ),
  );
  route(app, R.create, withErrors, (req) => rules.create(auth(req), req.body));
  route(app, R.exportRules, withErrors, async (req, reply) => {
    const body = await rules.exportRules(auth(req), req.query);
    return reply.header('content-disposition', 'attachment; filename="trigger-rules.json"').send(body);
  });
  route(app, R.importRules, withErrors, (req) => rules.importRules(auth(req), req.body));
  route(app, R.get, withErrors, (req) => rules.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => rules.update(auth(req), req.params.id, req.body));
  route(app, R.setStatus, withErrors, (req) => rules.setStatus(auth(req), req.params.id, req.params.status as 0 | 1));
  route(app, R.remove, withErrors, async (req) => {
    await rules.remove(auth(req), req.params.id);
    return { ok: true as const };
  });
}
