import crypto from 'node:crypto';
import path from 'node:path';
import {
  type ChangeEmailRequestSchema,
  type ChangeMobileRequestSchema,
  type ChangePasswordRequestSchema,
  CODE_RE,
  confirmProblem,
  DEFAULT_AREA_CODE,
  type ErrorBody,
  emailProblem,
  lengthBetween,
  MAX_RESERVES_DAYS,
  mobileProblem,
  passwordProblem,
  ReclaimPolicy,
  type SelfUserDetail,
  type TenantInfo,
  type TenantSpecRequest,
  type UpdateSelfRequest,
  type UpdateSelfTenantRequestSchema,
} from '@loggerhead/contract';
import type { z } from 'zod';
import { epochMs as ms } from '../../db/rows.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { AccountsRepository, TenantRow, UserRow } from './accounts.repository.ts';
import { fieldError, throwFieldErrors } from './registration.service.ts';
import type { VerificationService } from './verification.service.ts';

export const AVATAR_URL_PREFIX = '/v1/tenant/avatars/';

export function tenantInfo(t: TenantRow): TenantInfo {
  return {
    id: t.id,
    name: t.name,
    tenant_type: t.tenant_type,
    organization_name: t.organization_name,
    industry: t.industry,
    address: t.address,
    country: t.country,
    province: t.province,
    city: t.city,
    mobile: t.mobile,
    email: t.email,
    description: t.description,
    status: t.status,
    is_demo: t.is_demo,
    reclaim_policy: t.reclaim_policy,
    max_reserves_duration: t.max_reserves_duration,
  };
}

/** What a user types to log in: a sub-user is name@tenantname (spec §6). */
export const loginName = (u: UserRow, t: TenantRow) => (u.parent_user_id ? `${u.username}@${t.name}` : u.username);

/** Image types accepted as avatars, recognised by their first bytes rather than the declared type. */
export function sniffImage(buf: Buffer): 'png' | 'jpg' | 'gif' | 'webp' | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.subarray(0, 6).toString('latin1'))) return 'gif';
  if (buf.length >= 12 && buf.subarray(0, 4).toString('latin1') === 'RIFF' && buf.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return null;
}

export function assertWritable(auth: Auth) {
  if (auth.readOnly) throw forbidden('The experience account is read-only');
}

export function selfService(deps: {
  accounts: AccountsRepository;
  codes: VerificationService;
  /** The file store of avatar images (`ctx.files.under('avatars')`). */
  avatars: FileStore;
  /** Days the tenant's package keeps data (null = for ever). */
  retentionLimit: (tenantId: string) => Promise<number | null>;
}) {
  const { accounts, codes } = deps;

  async function load(auth: Auth): Promise<{ user: UserRow; tenant: TenantRow }> {
    const user = await accounts.user(auth.tenantId, auth.userId);
    const tenant = await accounts.tenant(auth.tenantId);
    if (!user || !tenant) throw notFound('User not found');
    return { user, tenant };
  }

  return {
    load,

    async get(auth: Auth): Promise<SelfUserDetail> {
      const { user: u, tenant: t } = await load(auth);
      return {
        id: u.id,
        tenant_id: u.tenant_id,
        name: u.name,
        username: u.username,
        nick_name: u.nick_name,
        avatar: u.avatar,
        mobile: u.mobile,
        email: u.email,
        isManager: u.is_manager,
        systemManager: u.system_manager,
        area_code: u.area_code,
        gender: u.gender,
        job: u.job,
        department: u.department,
        description: u.description,
        organization_name: t.organization_name,
        industry: t.industry,
        address: t.address,
        login_name: loginName(u, t),
        last_login_time: ms(u.last_login_time),
        last_login_ip: u.last_login_ip,
        readOnly: auth.readOnly,
        tenantInfo: tenantInfo(t),
      };
    },

    /** Personal info. Company, industry and address are the tenant's: only its manager changes them (spec §5). */
    async update(auth: Auth, req: UpdateSelfRequest) {
      assertWritable(auth);
      const { tenant } = await load(auth);
      const errors: ErrorBody[] = [];
      if (req.nick_name !== undefined && !lengthBetween(req.nick_name.trim(), 2, 20)) {
        errors.push(fieldError('http.400', 'nick_name', 'nick_name: 2-20 characters'));
      }
      for (const f of ['job', 'department', 'organization_name', 'industry', 'address'] as const) {
        const v = req[f];
        if (v !== undefined && !lengthBetween(v.trim(), 2, 32)) errors.push(fieldError('http.400', f, `${f}: 2-32 characters`));
      }
      throwFieldErrors(errors);
      const tenantFields = {
        organization_name: req.organization_name?.trim(),
        industry: req.industry?.trim(),
        address: req.address?.trim(),
      };
      const changesTenant = Object.entries(tenantFields).some(([k, v]) => v !== undefined && v !== tenant[k as keyof typeof tenantFields]);
      if (changesTenant && !auth.isManager) throw forbidden('Company, industry and address are set by the main account');
      await accounts.updateUser(auth.tenantId, auth.userId, {
        nick_name: req.nick_name?.trim(),
        gender: req.gender,
        job: req.job?.trim(),
        department: req.department?.trim(),
      });
      if (changesTenant) await accounts.updateTenant(auth.tenantId, tenantFields);
    },

    /** By the old password, or by an SMS code sent to the account's own mobile (purpose modify). */
    async changePassword(auth: Auth, req: z.infer<typeof ChangePasswordRequestSchema>) {
      assertWritable(auth);
      const { user } = await load(auth);
      const errors: ErrorBody[] = [];
      const pp = passwordProblem(req.password);
      if (pp) errors.push(fieldError(pp, 'password'));
      if (req.confirmPassword != null) {
        const cp = confirmProblem(req.password, req.confirmPassword);
        if (cp) errors.push(fieldError(cp, 'confirmPassword'));
      }
      if (!req.old_password && !req.code) errors.push(fieldError('006', 'old_password'));
      if (!req.old_password && req.code && !CODE_RE.test(req.code)) errors.push(fieldError('014', 'code'));
      throwFieldErrors(errors);
      if (req.old_password) {
        if (!(await verifyPassword(req.old_password, user.password_hash))) {
          throw new ApiError(400, 'auth.password-error', undefined, { field: 'old_password' });
        }
      } else {
        const mobile = req.mobile?.trim() || user.mobile;
        if (!user.mobile || mobile !== user.mobile || (await codes.check(1, mobile, 'modify', req.code as string, true)) !== 'ok') {
          throw new ApiError(400, '018', undefined, { field: 'code' });
        }
      }
      await accounts.setPassword(auth.tenantId, auth.userId, await hashPassword(req.password as string));
      await accounts.revokeSessions(auth.userId, auth.sessionId);
    },

    async changeMobile(auth: Auth, req: z.infer<typeof ChangeMobileRequestSchema>) {
      assertWritable(auth);
      const { user } = await load(auth);
      const errors: ErrorBody[] = [];
      const areaCode = req.area_code || DEFAULT_AREA_CODE;
      const mobile = req.new_mobile?.trim() ?? '';
      const mp = mobileProblem(mobile, areaCode);
      if (mp) errors.push(fieldError(mp, 'new_mobile'));
      else if (!user.parent_user_id && (await accounts.mobileTaken(mobile, user.id))) errors.push(fieldError('007', 'new_mobile'));
      if (user.mobile && (req.old_mobile?.trim() ?? '') !== user.mobile) {
        errors.push(fieldError('http.400', 'old_mobile', 'The current mobile number does not match'));
      }
      if (!CODE_RE.test(req.new_code ?? '')) errors.push(fieldError('014', 'new_code'));
      throwFieldErrors(errors);
      if ((await codes.check(1, mobile, 'modify', req.new_code as string, true)) !== 'ok') {
        throw new ApiError(400, '018', undefined, { field: 'new_code' });
      }
      await accounts.updateUser(auth.tenantId, auth.userId, { mobile, area_code: areaCode });
      if (user.is_manager && !user.parent_user_id) await accounts.updateTenant(auth.tenantId, { mobile });
    },

    async changeEmail(auth: Auth, req: z.infer<typeof ChangeEmailRequestSchema>) {
      assertWritable(auth);
      const { user } = await load(auth);
      const errors: ErrorBody[] = [];
      const email = req.email?.trim() ?? '';
      const ep = emailProblem(email);
      if (ep) errors.push(fieldError(ep, 'email'));
      else if (await accounts.emailTaken(email, user.id)) errors.push(fieldError('016', 'email'));
      if (!CODE_RE.test(req.code ?? '')) errors.push(fieldError('021', 'code'));
      throwFieldErrors(errors);
      if ((await codes.check(2, email, 'modify', req.code as string, true)) !== 'ok') {
        throw new ApiError(400, '019', undefined, { field: 'code' });
      }
      await accounts.updateUser(auth.tenantId, auth.userId, { email });
      if (user.is_manager && !user.parent_user_id) await accounts.updateTenant(auth.tenantId, { email });
    },

    /** Stores the image in the avatar store with an unguessable name; the old file goes. */
    async setAvatar(auth: Auth, data: Buffer, mimetype: string): Promise<{ avatar: string }> {
      assertWritable(auth);
      const kind = sniffImage(data);
      if (!mimetype.startsWith('image/') || !kind) throw new ApiError(415, 'http.415', 'Only PNG, JPEG, GIF or WebP images');
      const { user } = await load(auth);
      const file = `${crypto.randomBytes(16).toString('hex')}.${kind}`;
      await deps.avatars.put(file, data);
      const avatar = AVATAR_URL_PREFIX + file;
      await accounts.updateUser(auth.tenantId, auth.userId, { avatar });
      if (user.avatar?.startsWith(AVATAR_URL_PREFIX)) {
        await deps.avatars.remove(path.posix.basename(user.avatar));
      }
      return { avatar };
    },

    async getTenant(auth: Auth): Promise<TenantInfo> {
      return tenantInfo((await load(auth)).tenant);
    },

    async updateTenant(auth: Auth, req: z.infer<typeof UpdateSelfTenantRequestSchema>) {
      assertWritable(auth);
      if (!auth.isManager) throw forbidden();
      const errors: ErrorBody[] = [];
      for (const f of ['organization_name', 'industry', 'address'] as const) {
        const v = req[f];
        if (v !== undefined && !lengthBetween(v.trim(), 2, 32)) errors.push(fieldError('http.400', f, `${f}: 2-32 characters`));
      }
      throwFieldErrors(errors);
      await accounts.updateTenant(auth.tenantId, req);
      return tenantInfo((await load(auth)).tenant);
    },

    /**
     * How long the tenant's data is kept (spec §7 tenant-spec): as long as the package allows
     * (reclaim_policy 0), or a shorter max_reserves_duration in days (1). The manager only.
     */
    async updateTenantSpec(auth: Auth, req: TenantSpecRequest) {
      assertWritable(auth);
      if (!auth.isManager) throw forbidden();
      const policy = req.reclaim_policy;
      if (policy !== ReclaimPolicy.package && policy !== ReclaimPolicy.early) {
        throw new ApiError(400, 'http.400', 'reclaim_policy: 0 (as the package allows) or 1 (reclaim earlier)', {
          field: 'reclaim_policy',
        });
      }
      let days: number | null = null;
      if (policy === ReclaimPolicy.early) {
        const limit = (await deps.retentionLimit(auth.tenantId)) ?? MAX_RESERVES_DAYS;
        days = req.max_reserves_duration ?? null;
        if (days === null || days < 1 || days > limit) {
          throw new ApiError(400, 'http.400', `max_reserves_duration: whole days, 1-${limit} (the package keeps data ${limit} days)`, {
            field: 'max_reserves_duration',
            details: { max: limit },
          });
        }
      } else if (req.max_reserves_duration != null) {
        throw new ApiError(400, 'http.400', 'max_reserves_duration: only with reclaim_policy 1', { field: 'max_reserves_duration' });
      }
      await accounts.updateTenant(auth.tenantId, { reclaim_policy: policy, max_reserves_duration: days });
      return tenantInfo((await load(auth)).tenant);
    },
  };
}
export type SelfService = ReturnType<typeof selfService>;
