import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { roleRepository } from './role.repository.ts';
import { roleService } from './role.service.ts';

const R = Routes.roles;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['roles'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Spec §6/§7 control roles: the tenant's roles and its sub-users' roles. */
export function roleRoutes(root: LoggerheadApp, ctx: AppContext) {
  const app = root as unknown as App;
  const roles = roleService({
    repo: roleRepository(ctx.database.raw),
    // A holder's next call reads its keys and menus again.
    changed: (scope) => ctx.control.forgetSessions(scope),
  });
  route(app, R.list, withErrors, (req) => roles.list(auth(req)));
  route(app, R.create, withErrors, (req) => roles.create(auth(req), req.body));
  route(app, R.update, withErrors, (req) => roles.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, (req) => roles.remove(auth(req), req.params.id));
  route(app, R.userRoles, withErrors, (req) => roles.userRoles(auth(req), req.params.user_id));
  route(app, R.setUserRoles, withErrors, (req) => roles.setUserRoles(auth(req), req.params.user_id, req.body.role_ids));
}
