import { ErrorResponseSchema, Routes, TOP_MENU_KEYS } from '@loggerhead/contract';

type TopMenuKey = (typeof TOP_MENU_KEYS)[number];

import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { privilegesRepository } from '../control/privileges.repository.ts';
import { inTenant } from '../things/things.access.ts';
import { roleRepository } from './role.repository.ts';
import { commonRoleService, roleService } from './role.service.ts';
import { settingsRepository } from './settings.repository.ts';

const R = Routes.roles;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['roles'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Spec §6/§7 control roles: the tenant's roles and its sub-users' roles; common roles; the global menu. */
export function roleRoutes(root: LoggerheadApp, ctx: AppContext) {
  const app = root as unknown as App;
  const roles = roleService({
    repo: roleRepository(ctx.database.raw),
    holdings: privilegesRepository(ctx.database.raw),
    // A holder's next call reads its keys and menus again.
    changed: (scope) => ctx.control.forgetSessions(scope),
  });
  route(app, R.list, withErrors, (req) => roles.list(auth(req)));
  route(app, R.create, withErrors, (req) => roles.create(auth(req), req.body));
  route(app, R.update, withErrors, (req) => roles.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, (req) => roles.remove(auth(req), req.params.id));
  route(app, R.userRoles, withErrors, (req) => roles.userRoles(auth(req), req.params.user_id));
  route(app, R.setUserRoles, withErrors, (req) => roles.setUserRoles(auth(req), req.params.user_id, req.body.role_ids));
  route(app, R.userPrivileges, withErrors, (req) => roles.userPrivileges(auth(req), req.params.user_id));
  route(app, R.tenantApis, withErrors, () => roles.tenantApis());

  const C = Routes.commonRoles;
  const common = commonRoleService({ repo: roleRepository(ctx.database.raw), changed: (scope) => ctx.control.forgetSessions(scope) });
  route(app, C.list, withErrors, () => common.list());
  route(app, C.create, withErrors, (req) => common.create(requireAuth(req.auth), req.body));
  route(app, C.update, withErrors, (req) => common.update(req.params.id, req.body));
  route(app, C.remove, withErrors, (req) => common.remove(req.params.id));

  const M = Routes.globalMenu;
  const settings = settingsRepository(ctx.database.raw);
  route(app, M.get, withErrors, async () => ({ menu: await globalMenu(settings) }));
  route(app, M.update, withErrors, async (req) => {
    // The header's order, whatever order the entries came in.
    const menu = TOP_MENU_KEYS.filter((k) => req.body.menu.includes(k));
    await settings.put('global-menu', menu, requireAuth(req.auth).userId);
    return { menu };
  });
}

/** The visible top-menu entries (spec §3 global permission info `menu`): as the system manager set them, or all. */
export async function globalMenu(settings: ReturnType<typeof settingsRepository>): Promise<TopMenuKey[]> {
  const stored = await settings.get<string[]>('global-menu');
  return Array.isArray(stored) ? TOP_MENU_KEYS.filter((k) => stored.includes(k)) : [...TOP_MENU_KEYS];
}
