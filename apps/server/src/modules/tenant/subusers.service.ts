import {
  type CreateSubUserRequest,
  DEFAULT_AREA_CODE,
  type DeviceAccessEntry,
  type ErrorBody,
  emailProblem,
  GRANTABLE_KEYS,
  MANAGER_ONLY_MENUS,
  type MenuKey,
  mobileProblem,
  passwordProblem,
  SUB_USER_LIMIT,
  SUB_USERNAME_RE,
  type SubUser,
  type UpdateSubUserRequest,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { AccountsRepository, UserRow } from './accounts.repository.ts';
import { fieldError, throwFieldErrors } from './registration.service.ts';
import { type SubUserRelations, subUsersRepository } from './subusers.repository.ts';

const grantable = new Set(GRANTABLE_KEYS);

/** Spec §6: a sub-user's initial password is the last 8 digits of its mobile. */
export const initialPassword = (mobile: string) => mobile.replace(/\D/g, '').slice(-8);

/** Path {tenant_id} must be the caller's own tenant: a manager manages only its sub-users. */
function assertOwnTenant(auth: Auth, tenantId: string) {
  if (tenantId !== auth.tenantId) throw forbidden();
}

function checkPermissions(req: { grants?: string[]; menus?: MenuKey[]; devices?: DeviceAccessEntry[] }, errors: ErrorBody[]) {
  const badKeys = (req.grants ?? []).filter((k) => !grantable.has(k));
  if (badKeys.length) errors.push(fieldError('http.400', 'grants', `Not grantable to a sub-user: ${badKeys.slice(0, 5).join(', ')}`));
  const badMenus = (req.menus ?? []).filter((m) => MANAGER_ONLY_MENUS.includes(m));
  if (badMenus.length) errors.push(fieldError('http.400', 'menus', `Only the main account sees: ${badMenus.join(', ')}`));
  const ids = (req.devices ?? []).map((d) => d.things_id.toLowerCase());
  if (new Set(ids).size !== ids.length) errors.push(fieldError('http.400', 'devices', 'A device is listed twice'));
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

export function subUsersService(deps: {
  raw: RawSql;
  accounts: AccountsRepository;
  /** The package limit (users_quota is sub_user_num): 403 quota.limit-reached past it. */
  assertCanAdd?: (auth: Auth, resource: 'sub_user_num', current: number) => Promise<void>;
}) {
  const repo = subUsersRepository(deps.raw);

  async function tenantName(auth: Auth) {
    return (await deps.accounts.tenant(auth.tenantId))?.name ?? '';
  }

  function toSubUser(u: UserRow, rel: SubUserRelations, tenant: string): SubUser {
    return {
      id: u.id,
      tenant_id: u.tenant_id,
      username: u.username,
      login_name: `${u.username}@${tenant}`,
      nick_name: u.nick_name,
      mobile: u.mobile,
      area_code: u.area_code,
      email: u.email,
      description: u.description,
      status: u.status,
      last_login_time: ms(u.last_login_time),
      last_login_ip: u.last_login_ip,
      created_at: u.created_at.getTime(),
      devices: rel.devices,
      menus: rel.menus,
      grants: rel.grants,
    };
  }

  async function load(auth: Auth, userId: string): Promise<SubUser> {
    const u = await repo.get(auth.tenantId, userId);
    if (!u) throw notFound('User not found');
    const rel = (await repo.relations(auth.tenantId, [u.id])).get(u.id) as SubUserRelations;
    return toSubUser(u, rel, await tenantName(auth));
  }

  async function assertDevices(auth: Auth, devices: DeviceAccessEntry[] | undefined) {
    const unknown = await repo.unknownThings(
      auth.tenantId,
      (devices ?? []).map((d) => d.things_id),
    );
    if (unknown.length) throw new ApiError(400, 'http.400', `Unknown device: ${unknown[0]}`, { field: 'devices' });
  }

  return {
    async list(auth: Auth, tenantId: string, q: { current_page: number; page_size: number; username?: string; mobile?: string }) {
      assertOwnTenant(auth, tenantId);
      const { total, rows } = await repo.page(auth.tenantId, q, q.current_page, q.page_size);
      const rel = await repo.relations(
        auth.tenantId,
        rows.map((r) => r.id),
      );
      const tenant = await tenantName(auth);
      return {
        total,
        current_page: q.current_page,
        page_size: q.page_size,
        list: rows.map((r) => toSubUser(r, rel.get(r.id) as SubUserRelations, tenant)),
      };
    },

    async get(auth: Auth, tenantId: string, userId: string) {
      assertOwnTenant(auth, tenantId);
      return load(auth, userId);
    },

    async create(auth: Auth, tenantId: string, req: CreateSubUserRequest): Promise<SubUser> {
      assertOwnTenant(auth, tenantId);
      const errors: ErrorBody[] = [];
      const username = req.username.trim();
      if (!username) errors.push(fieldError('013', 'username'));
      else if (!SUB_USERNAME_RE.test(username)) {
        errors.push(fieldError('008', 'username', 'Username must be 4-32 letters, digits or underscore'));
      }
      const areaCode = req.area_code || DEFAULT_AREA_CODE;
      const mobile = req.mobile.trim();
      const mp = mobileProblem(mobile, areaCode);
      if (mp) errors.push(fieldError(mp, 'mobile'));
      const email = req.email?.trim() || null;
      if (email) {
        const ep = emailProblem(email);
        if (ep) errors.push(fieldError(ep, 'email'));
        else if (await deps.accounts.emailTaken(email)) errors.push(fieldError('016', 'email'));
      }
      if (req.password) {
        const pp = passwordProblem(req.password);
        if (pp) errors.push(fieldError(pp, 'password'));
      }
      checkPermissions(req, errors);
      throwFieldErrors(errors);
      await assertDevices(auth, req.devices);
      const count = await repo.count(auth.tenantId);
      if (deps.assertCanAdd) await deps.assertCanAdd(auth, 'sub_user_num', count);
      else if (count >= SUB_USER_LIMIT) throw new ApiError(403, 'quota.limit-reached');

      const passwordHash = await hashPassword(req.password || initialPassword(mobile));
      let id: string;
      try {
        id = await deps.raw.transaction(async (tx) => {
          const r = subUsersRepository(tx);
          const newId = await r.insert({
            tenantId: auth.tenantId,
            parentId: auth.userId,
            username,
            mobile,
            areaCode,
            email,
            description: req.description ?? null,
            passwordHash,
          });
          await r.setGrants(auth.tenantId, newId, [...new Set(req.grants)]);
          await r.setMenus(auth.tenantId, newId, [...new Set(req.menus)]);
          await r.setDevices(auth.tenantId, newId, req.devices);
          return newId;
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw new ApiError(409, '009', undefined, { field: 'username' });
        throw e;
      }
      return load(auth, id);
    },

    /** Any change of grants, menus, devices, status or password ends the sub-user's sessions (spec §6: re-login). */
    async update(auth: Auth, tenantId: string, userId: string, req: UpdateSubUserRequest): Promise<SubUser> {
      assertOwnTenant(auth, tenantId);
      const before = await repo.get(auth.tenantId, userId);
      if (!before) throw notFound('User not found');
      const errors: ErrorBody[] = [];
      const areaCode = req.area_code || before.area_code || DEFAULT_AREA_CODE;
      if (req.mobile !== undefined) {
        const mp = mobileProblem(req.mobile.trim(), areaCode);
        if (mp) errors.push(fieldError(mp, 'mobile'));
      }
      const email = req.email === undefined ? undefined : req.email?.trim() || null;
      if (email) {
        const ep = emailProblem(email);
        if (ep) errors.push(fieldError(ep, 'email'));
        else if (await deps.accounts.emailTaken(email, userId)) errors.push(fieldError('016', 'email'));
      }
      if (req.password !== undefined) {
        const pp = passwordProblem(req.password);
        if (pp) errors.push(fieldError(pp, 'password'));
      }
      checkPermissions(req, errors);
      throwFieldErrors(errors);
      await assertDevices(auth, req.devices);

      const passwordHash = req.password !== undefined ? await hashPassword(req.password) : undefined;
      await deps.raw.transaction(async (tx) => {
        const r = subUsersRepository(tx);
        await r.update(auth.tenantId, userId, {
          mobile: req.mobile?.trim(),
          area_code: req.mobile !== undefined ? areaCode : undefined,
          email,
          description: req.description,
          nick_name: req.nick_name,
          status: req.status,
          password_hash: passwordHash,
        });
        if (req.grants) await r.setGrants(auth.tenantId, userId, [...new Set(req.grants)]);
        if (req.menus) await r.setMenus(auth.tenantId, userId, [...new Set(req.menus)]);
        if (req.devices) await r.setDevices(auth.tenantId, userId, req.devices);
      });
      // Its open sockets are told why: rights narrowed or widened, or disabled (no longer allowed as
      // it was), or only the password changed (sign in again).
      const rightsChanged =
        req.grants !== undefined ||
        req.menus !== undefined ||
        req.devices !== undefined ||
        (req.status !== undefined && req.status !== before.status);
      if (rightsChanged) await deps.accounts.revokeSessions(userId, undefined, 'withdrawn');
      else if (req.password !== undefined) await deps.accounts.revokeSessions(userId);
      return load(auth, userId);
    },

    async remove(auth: Auth, tenantId: string, userId: string) {
      assertOwnTenant(auth, tenantId);
      if (!(await repo.delete(auth.tenantId, userId))) throw notFound('User not found');
      // Its sessions went with it; its open sockets close.
      await deps.accounts.revokeSessions(userId, undefined, 'withdrawn');
    },

    /** Back to the initial password (last 8 digits of the mobile) unless one is given. */
    async resetPassword(auth: Auth, tenantId: string, userId: string, password?: string) {
      assertOwnTenant(auth, tenantId);
      const u = await repo.get(auth.tenantId, userId);
      if (!u) throw notFound('User not found');
      if (password) {
        const pp = passwordProblem(password);
        if (pp) throwFieldErrors([fieldError(pp, 'password')]);
      }
      await deps.accounts.setPassword(auth.tenantId, userId, await hashPassword(password || initialPassword(u.mobile ?? '')));
      await deps.accounts.revokeSessions(userId);
    },
  };
}
export type SubUsersService = ReturnType<typeof subUsersService>;
