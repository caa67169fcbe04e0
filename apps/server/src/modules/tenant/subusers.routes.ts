import { ErrorResponseSchema, type MenuKey, Routes } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import type { SubUsersService } from './subusers.service.ts';

const tags = ['sub-users'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags, errors };

/** Sub-user management (spec §7 /tenant/tenants/{tenant_id}/users): the tenant manager only. */
export function subUsersRoutes(app: LoggerheadApp, svc: SubUsersService) {
  const R = Routes.subUsers;
  route(app, R.list, withErrors, (req) => svc.list(requireAuth(req.auth), req.params.tenant_id, req.query));
  route(app, R.create, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.create(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );
  route(app, R.get, withErrors, (req) => svc.get(requireAuth(req.auth), req.params.tenant_id, req.params.user_id));
  route(app, R.update, withErrors, (req) => svc.update(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.body));
  route(app, R.remove, { tags }, async (req, reply) => {
    await svc.remove(requireAuth(req.auth), req.params.tenant_id, req.params.user_id);
    return reply.code(204).send();
  });
  // Spec §7 control user menus: the same bindings, read and replaced on their own.
  const menus = (u: { menus: string[] }) => ({ menus: u.menus as MenuKey[] });
  route(app, Routes.roles.userMenus, withErrors, async (req) =>
    menus(await svc.get(requireAuth(req.auth), req.params.tenant_id, req.params.user_id)),
  );
  route(app, Routes.roles.setUserMenus, withErrors, async (req) =>
    menus(await svc.update(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, { menus: req.body.menus })),
  );
  route(app, R.resetPassword, { tags }, async (req, reply) => {
    await svc.resetPassword(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.body?.password);
    return reply.code(204).send();
  });
}
