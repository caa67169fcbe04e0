import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import type { CommandService } from '../command/command.service.ts';
import { inTenant } from '../things/things.access.ts';
import { edgeRepository } from './edge.repository.ts';
import { edgeService } from './edge.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['edge'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Edge-computing rules and their issuance to devices over commands. */
export function edgeRoutes(app: LoggerheadApp, ctx: AppContext, commands: CommandService) {
  const edge = edgeService({
    raw: ctx.database.raw,
    repo: edgeRepository(ctx.database.raw),
    commands,
    assertCanAdd: (a, resource, current) => ctx.quota.assertCanAdd(a, resource, current),
  });
  const E = Routes.edgeRules;
  route(app, E.list, withErrors, (req) => edge.list(auth(req), req.query));
  route(app, E.create, withErrors, (req) => edge.create(auth(req), req.body));
  route(app, E.issuances, withErrors, (req) => edge.issuances(auth(req), req.query));
  route(app, E.get, withErrors, (req) => edge.get(auth(req), req.params.id));
  route(app, E.update, withErrors, (req) => edge.update(auth(req), req.params.id, req.body));
  route(app, E.remove, withErrors, (req) => edge.remove(auth(req), req.params.id));
  route(app, E.issue, withErrors, (req) => edge.issue(auth(req), req.params.id, req.body));
}
