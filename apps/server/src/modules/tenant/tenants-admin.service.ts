import {
  GIB,
  type PackageUpdate,
  passwordProblem,
  serverText,
  TENANT_QUOTA_FIELDS,
  TENANT_QUOTA_NAMES,
  TENANT_STATUS,
  type Tenant,
  type TenantListQuery,
  type TenantQuotas,
  type TenantQuotasUpdate,
  type TenantUpdateRequest,
  type TenantUser,
  type TextLang,
} from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { Notifier } from '../../notify/notifier.ts';
import type { PackageService } from '../billing/package.service.ts';
import type { UsageService } from '../billing/usage.service.ts';
import type { MessageService } from '../message/message.service.ts';
import type { AccountsRepository, UserRow } from './accounts.repository.ts';
import { fieldError, throwFieldErrors } from './registration.service.ts';
import { initialPassword } from './subusers.service.ts';
import type { AdminTenantRow, TenantFilter, TenantsAdminRepository } from './tenants-admin.repository.ts';

export function toTenant(r: AdminTenantRow): Tenant {
  return {
    id: r.id,
    name: r.name,
    tenant_type: r.tenant_type,
    organization_name: r.organization_name,
    mobile: r.mobile,
    email: r.email,
    address: r.address,
    city: r.city,
    province: r.province,
    country: r.country,
    industry: r.industry,
    description: r.description,
    status: r.status,
    audited: r.audited,
    platform: r.platform,
    belong_platform: r.belong_platform,
    priority: r.priority,
    merchant_id: r.merchant_id,
    is_demo: r.is_demo,
    return_visit_time: ms(r.return_visit_time),
    created_at: r.created_at.getTime(),
    manager_username: r.manager_username,
  };
}

export const CSV_MAX_ROWS = 100_000;
const CSV_COLUMNS = [
  'id',
  'name',
  'organization_name',
  'manager_username',
  'mobile',
  'email',
  'industry',
  'country',
  'province',
  'city',
  'address',
  'status',
  'audited',
  'tenant_type',
  'platform',
  'created_at',
] as const;

function toTenantUser(u: UserRow): TenantUser {
  const manager = u.is_manager && u.parent_user_id === null;
  return {
    id: u.id,
    tenant_id: u.tenant_id,
    name: u.username,
    nick_name: u.nick_name,
    mobile: u.mobile,
    email: u.email,
    department: u.department,
    description: u.description,
    gender: u.gender,
    job: u.job,
    last_login_ip: u.last_login_ip,
    last_login_time: ms(u.last_login_time),
    parent_user_id: u.parent_user_id,
    type: manager ? 1 : 2,
    status: u.status,
    created_at: u.created_at.getTime(),
  };
}

/** The package's own bound on a count (PackageUpdateSchema). */
const PACKAGE_MAX = 2_147_483_647;

export function tenantsAdminService(deps: {
  repo: TenantsAdminRepository;
  notifier: Notifier;
  messages?: MessageService;
  accounts?: AccountsRepository;
  packages?: PackageService;
  usage?: UsageService;
  /** The tenant's language for what the server writes to its people (zh when not given). */
  language?: (tenantId: string) => Promise<TextLang>;
}) {
  const { repo } = deps;
  const filter = (q: Partial<TenantListQuery>): TenantFilter => ({
    name: q.name?.trim() || undefined,
    mobile: q.mobile?.trim() || undefined,
    status: q.status,
  });

  async function get(id: string): Promise<AdminTenantRow> {
    const row = await repo.byId(id);
    if (!row) throw notFound('Tenant not found');
    return row;
  }

  function need<T>(v: T | undefined): T {
    if (!v) throw new Error('tenants admin: dependency missing');
    return v;
  }

  /** The quota screens reach the platform's own tenant as well. */
  async function getWithPlatform(id: string): Promise<AdminTenantRow> {
    const row = await repo.byIdWithPlatform(id);
    if (!row) throw notFound('Tenant not found');
    return row;
  }

  async function quotas(id: string): Promise<TenantQuotas> {
    const t = await getWithPlatform(id);
    const [pkg, used, bytes] = await Promise.all([need(deps.packages).load(id), repo.quotaUsage(id), need(deps.usage).bytes(id)]);
    const usage: Record<string, number> = {
      bytes_quota: bytes,
      things_quota: used.things,
      documents_download_quota: used.documents,
      labels_quota: used.labels,
      rules_quota: used.rules,
      users_quota: used.users,
    };
    return {
      tenant_id: id,
      is_platform: t.is_system,
      quota_exempt: t.quota_exempt,
      quotas: TENANT_QUOTA_NAMES.map((q) => {
        const field = TENANT_QUOTA_FIELDS[q];
        const v = pkg[field] === null ? null : Number(pkg[field]);
        return { quota: q, package_field: field, limit: v === null ? null : q === 'bytes_quota' ? v * GIB : v, usage: usage[q] };
      }),
      reclaim_policy: t.reclaim_policy,
      max_reserves_duration: t.max_reserves_duration,
      maximum_data_retention_days: pkg.maximum_data_retention_days === null ? null : Number(pkg.maximum_data_retention_days),
    };
  }

  return {
    async get(_auth: Auth, id: string): Promise<Tenant> {
      return toTenant(await get(id));
    },

    async users(_auth: Auth, id: string, q: { current_page: number; page_size: number }) {
      await get(id);
      const { total, rows } = await repo.users(id, q.current_page, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toTenantUser) };
    },

    /** A user of a customer tenant gets a new (or the default) password; its sessions end. */
    async resetUserPassword(_auth: Auth, id: string, userId: string, password?: string): Promise<void> {
      await get(id);
      const u = await repo.user(id, userId);
      if (!u) throw notFound('User not found');
      if (password) {
        const pp = passwordProblem(password);
        if (pp) throwFieldErrors([fieldError(pp, 'password')]);
      }
      const accounts = need(deps.accounts);
      await accounts.setPassword(id, userId, await hashPassword(password || initialPassword(u.mobile ?? '')));
      await accounts.revokeSessions(userId);
    },

    quotas: (_auth: Auth, id: string) => quotas(id),

    /** The quotas go into the tenant's package (the one store the modules enforce); the reclaim policy into the tenant. */
    async updateQuotas(auth: Auth, id: string, req: TenantQuotasUpdate): Promise<TenantQuotas> {
      const t = await getWithPlatform(id);
      const patch: PackageUpdate = {};
      for (const q of TENANT_QUOTA_NAMES) {
        const v = req[q];
        if (v === undefined) continue;
        let n = v;
        if (n !== null && q === 'bytes_quota') {
          if (n % GIB !== 0) throw new ApiError(400, 'quota.bytes-not-whole-gb', undefined, { field: q });
          n = n / GIB;
        }
        if (n !== null && n > PACKAGE_MAX)
          throw new ApiError(400, 'quota.too-large', undefined, { field: q, details: { max: PACKAGE_MAX } });
        (patch as Record<string, number | null>)[TENANT_QUOTA_FIELDS[q]] = n;
      }
      const policy = req.reclaim_policy ?? t.reclaim_policy;
      let days = req.max_reserves_duration === undefined ? t.max_reserves_duration : req.max_reserves_duration;
      if (policy === 0) days = null;
      else {
        const retention = (await need(deps.packages).load(id)).maximum_data_retention_days;
        const limit = retention === null ? 36500 : Number(retention);
        if (days === null || days < 1 || days > limit)
          throw new ApiError(400, 'quota.reserves-out-of-range', undefined, { field: 'max_reserves_duration', details: { max: limit } });
      }
      if (Object.keys(patch).length) await need(deps.packages).update(auth, id, patch);
      if (req.quota_exempt !== undefined && req.quota_exempt !== t.quota_exempt) await repo.setQuotaExempt(id, req.quota_exempt);
      if (policy !== t.reclaim_policy || days !== t.max_reserves_duration)
        await repo.update(id, { reclaim_policy: policy, max_reserves_duration: days });
      return quotas(id);
    },

    async list(_auth: Auth, q: TenantListQuery) {
      const { total, rows } = await repo.page(filter(q), q.current_page, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toTenant) };
    },

    statistic: (_auth: Auth) => repo.statistic(),

    async csv(_auth: Auth, q: Partial<TenantListQuery>): Promise<string> {
      const rows = await repo.all(filter(q), CSV_MAX_ROWS);
      let out = `${CSV_BOM}${CSV_COLUMNS.join(',')}\r\n`;
      for (const r of rows) out += csvLine(CSV_COLUMNS.map((c) => r[c]));
      return out;
    },

    async update(_auth: Auth, id: string, req: TenantUpdateRequest): Promise<Tenant> {
      await get(id);
      const { return_visit_time, ...rest } = req;
      await repo.update(id, {
        ...rest,
        return_visit_time: return_visit_time === undefined ? undefined : return_visit_time === null ? null : new Date(return_visit_time),
        // Marked reviewed by hand: the time it was; unmarked: no review time either.
        audited_at: req.audited === undefined ? undefined : req.audited ? new Date() : null,
      });
      return toTenant(await get(id));
    },

    /**
     * PUT /tenant/tenants/{id}/audit/{pass}: 1 approves (active), 0 rejects.
     * With notify, the manager hears of it by e-mail and SMS (both recorded in the push log) and in-app.
     */
    async audit(auth: Auth, id: string, pass: boolean, notify: boolean, remark?: string): Promise<Tenant> {
      const before = await get(id);
      await repo.update(id, {
        status: pass ? TENANT_STATUS.active : TENANT_STATUS.rejected,
        audited: true,
        audited_at: new Date(),
        audit_remark: remark ?? null,
      });
      const after = await get(id);
      if (notify) {
        const key = pass ? 'audit.pass' : 'audit.reject';
        const words = (l: TextLang) => {
          const params = {
            brand: 'Loggerhead',
            name: before.name,
            reason: remark ? serverText(l, 'audit.reject.reason', { remark }) : '',
          };
          return { title: serverText(l, `${key}.subject`, params), content: serverText(l, `${key}.text`, params) };
        };
        const lang = deps.language ? await deps.language(id) : 'zh';
        const { title: subject, content: text } = words(lang);
        const email = before.email ?? before.manager_email;
        if (email) await deps.notifier.send({ channel: 'email', destination: email, purpose: 'audit', subject, text, tenantId: id });
        if (before.mobile) await deps.notifier.send({ channel: 'sms', destination: before.mobile, purpose: 'audit', text, tenantId: id });
        // In-app too, in both languages (the inbox answers in the reader's): the manager sees it on
        // first login (a dialog when approved).
        if (deps.messages) {
          const texts = { zh: words('zh'), en: words('en') };
          await deps.messages.sendToManagers(id, { ...texts.en, texts, type: 'audit', reminderMode: pass ? 2 : 1 });
        }
      }
      void auth;
      return toTenant(after);
    },
  };
}
export type TenantsAdminService = ReturnType<typeof tenantsAdminService>;
