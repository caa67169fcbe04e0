import {
  GRANTABLE_KEYS,
  MANAGER_ONLY_MENUS,
  type MenuKey,
  PERMISSIONS,
  type Role,
  type RoleInputSchema,
  type TenantApiListSchema,
  type UserPrivileges,
} from '@loggerhead/contract';
import type { z } from 'zod';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, conflict } from '../../lib/errors.ts';
import type { RoleFields, RoleRow, roleRepository } from './role.repository.ts';

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const grantable = new Set(GRANTABLE_KEYS);

export const toRole = (r: RoleRow): Role => ({
  id: r.id,
  tenant_id: r.tenant_id,
  common: r.tenant_id === null,
  name: r.name,
  description: r.description,
  keys: r.keys,
  menus: r.menus,
  user_count: r.user_count,
  created_at: ms(r.created_at) as number,
  updated_at: ms(r.updated_at) as number,
});

/** A role holds only what a sub-user may be given: grantable keys and menus that are not the manager's own. */
type RoleInput = z.output<typeof RoleInputSchema>;

function fields(b: RoleInput): RoleFields {
  const badKeys = b.keys.filter((k) => !grantable.has(k));
  if (badKeys.length) throw new ApiError(400, 'role.bad-key', undefined, { field: 'keys', details: { keys: badKeys } });
  const badMenus = b.menus.filter((m) => MANAGER_ONLY_MENUS.includes(m as MenuKey));
  if (badMenus.length) throw new ApiError(400, 'role.bad-menu', undefined, { field: 'menus', details: { menus: badMenus } });
  return { name: b.name, description: b.description ?? null, keys: [...new Set(b.keys)].sort(), menus: [...new Set(b.menus)].sort() };
}

/**
 * Tenant roles (spec §6 control:tenant-role) and sub-users' roles (control:user-role). A change
 * makes the holders' sessions read their keys again (`changed`), so a role's keys are enforced at once.
 */
export function roleService(deps: {
  repo: ReturnType<typeof roleRepository>;
  /** A user's keys and menus with its roles' (the privileges repository the key check reads). */
  holdings: { grants(userId: string): Promise<string[]>; menus(tenantId: string, userId: string): Promise<string[]> };
  changed: (scope: { tenantId: string } | { userId: string } | 'all') => void;
}) {
  const { repo } = deps;
  const notFound = () => new ApiError(404, 'role.not-found');

  /** The tenant's own role `id`: a common one is the system manager's to change. */
  async function own(auth: Auth, id: string): Promise<RoleRow> {
    const r = await repo.get(auth, id);
    if (!r) throw notFound();
    if (r.tenant_id === null) throw new ApiError(403, 'role.common');
    return r;
  }

  async function one(auth: Auth, id: string): Promise<Role> {
    const r = await repo.get(auth, id);
    if (!r) throw notFound();
    return toRole(r);
  }

  return {
    async list(auth: Auth) {
      const rows = await repo.list(auth);
      return { list: rows.map(toRole), total: rows.length };
    },

    async create(auth: Auth, input: RoleInput): Promise<Role> {
      const f = fields(input);
      if (await repo.byName(auth, f.name)) throw conflict('role.duplicate', undefined, 'name');
      try {
        return await one(auth, await repo.insert(auth, f));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('role.duplicate', undefined, 'name');
        throw e;
      }
    },

    async update(auth: Auth, id: string, input: RoleInput): Promise<Role> {
      const f = fields(input);
      await own(auth, id);
      const same = await repo.byName(auth, f.name);
      if (same && same.id !== id) throw conflict('role.duplicate', undefined, 'name');
      try {
        await repo.update(auth, id, f);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('role.duplicate', undefined, 'name');
        throw e;
      }
      deps.changed({ tenantId: auth.tenantId });
      return one(auth, id);
    },

    async remove(auth: Auth, id: string): Promise<{ ok: true }> {
      await own(auth, id);
      if (!(await repo.remove(auth, id))) throw notFound();
      deps.changed({ tenantId: auth.tenantId });
      return { ok: true };
    },

    async userRoles(auth: Auth, userId: string) {
      if (!(await repo.isSubUser(auth, userId))) throw new ApiError(404, 'http.404', 'Sub-user not found');
      const rows = await repo.rolesOf(auth, userId);
      return { list: rows.map(toRole), total: rows.length };
    },

    /** What a sub-user holds on its next call: its own and its roles' grantable keys and menus (spec §7 control privileges). */
    async userPrivileges(auth: Auth, userId: string): Promise<UserPrivileges> {
      if (!(await repo.isSubUser(auth, userId))) throw new ApiError(404, 'http.404', 'Sub-user not found');
      const [granted, menus, roles] = await Promise.all([
        deps.holdings.grants(userId),
        deps.holdings.menus(auth.tenantId, userId),
        repo.rolesOf(auth, userId),
      ]);
      const held = new Set(granted);
      return {
        user_id: userId,
        tenant_manager: false,
        // In the catalogue's order, and only keys a sub-user can hold (as the key check does).
        apis: GRANTABLE_KEYS.filter((k) => held.has(k)).map((name) => ({ name })),
        menus,
        roles: roles.map((r) => ({ id: r.id, name: r.name, common: r.tenant_id === null })),
      };
    },

    /** Spec §7 control tenant-apis: the APIs a role or a sub-user of the tenant may be given, with their device scope. */
    tenantApis(): z.output<typeof TenantApiListSchema> {
      const list = PERMISSIONS.filter((p) => grantable.has(p.key)).map((p) => ({
        name: p.key,
        scope: p.scope as 'tenant' | 'device-read' | 'device-write',
      }));
      return { list, total: list.length };
    },

    /** Replaces a sub-user's roles; every role must be the tenant's or common (`role.not-found` otherwise, nothing changed). */
    async setUserRoles(auth: Auth, userId: string, roleIds: string[]) {
      if (!(await repo.isSubUser(auth, userId))) throw new ApiError(404, 'http.404', 'Sub-user not found');
      const ids = [...new Set(roleIds)];
      for (const id of ids) if (!(await repo.get(auth, id))) throw new ApiError(404, 'role.not-found', undefined, { field: 'role_ids' });
      await repo.setRoles(auth, userId, ids);
      deps.changed({ userId });
      const rows = await repo.rolesOf(auth, userId);
      return { list: rows.map(toRole), total: rows.length };
    },
  };
}

/**
 * Common roles (spec §7 control common-roles): the system manager's roles that every tenant may give
 * to its sub-users. A change reaches every holder's next call.
 */
export function commonRoleService(deps: { repo: ReturnType<typeof roleRepository>; changed: (scope: 'all') => void }) {
  const { repo } = deps;
  const notFound = () => new ApiError(404, 'role.not-found');
  async function one(id: string): Promise<Role> {
    const r = await repo.getCommon(id);
    if (!r) throw notFound();
    return toRole(r);
  }
  const save = async (write: () => Promise<unknown>) => {
    try {
      return await write();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('role.duplicate', undefined, 'name');
      throw e;
    }
  };

  return {
    async list() {
      const rows = await repo.listCommon();
      return { list: rows.map(toRole), total: rows.length };
    },

    async create(auth: Auth, input: RoleInput): Promise<Role> {
      const f = fields(input);
      if (await repo.commonByName(f.name)) throw conflict('role.duplicate', undefined, 'name');
      return one((await save(() => repo.insertCommon(auth, f))) as string);
    },

    async update(id: string, input: RoleInput): Promise<Role> {
      const f = fields(input);
      if (!(await repo.getCommon(id))) throw notFound();
      const same = await repo.commonByName(f.name);
      if (same && same.id !== id) throw conflict('role.duplicate', undefined, 'name');
      await save(() => repo.updateCommon(id, f));
      deps.changed('all');
      return one(id);
    },

    async remove(id: string): Promise<{ ok: true }> {
      if (!(await repo.removeCommon(id))) throw notFound();
      deps.changed('all');
      return { ok: true };
    },
  };
}
