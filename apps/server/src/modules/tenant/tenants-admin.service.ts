import { TENANT_STATUS, type Tenant, type TenantListQuery, type TenantUpdateRequest } from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { notFound } from '../../lib/errors.ts';
import type { Notifier } from '../../notify/notifier.ts';
import type { MessageService } from '../message/message.service.ts';
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

/** One CSV cell: quoted, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replaceAll('"', '""')}"`;
}

export function tenantsAdminService(deps: { repo: TenantsAdminRepository; notifier: Notifier; messages?: MessageService }) {
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

  return {
    async list(_auth: Auth, q: TenantListQuery) {
      const { total, rows } = await repo.page(filter(q), q.current_page, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toTenant) };
    },

    statistic: (_auth: Auth) => repo.statistic(),

    async csv(_auth: Auth, q: Partial<TenantListQuery>): Promise<string> {
      const rows = await repo.all(filter(q), CSV_MAX_ROWS);
      const lines = [CSV_COLUMNS.join(',')];
      for (const r of rows) lines.push(CSV_COLUMNS.map((c) => csvCell(r[c])).join(','));
      // BOM: spreadsheet programs then read the UTF-8 (Chinese names) right.
      return `\ufeff${lines.join('\r\n')}\r\n`;
    },

    async update(_auth: Auth, id: string, req: TenantUpdateRequest): Promise<Tenant> {
      await get(id);
      const { return_visit_time, ...rest } = req;
      await repo.update(id, {
        ...rest,
        return_visit_time: return_visit_time === undefined ? undefined : return_visit_time === null ? null : new Date(return_visit_time),
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
        const text = pass
          ? `Your Loggerhead account ${before.name} has been approved. You can log in now.`
          : `Your Loggerhead account ${before.name} was not approved.${remark ? ` Reason: ${remark}` : ''} Please contact us for details.`;
        const subject = pass ? 'Loggerhead account approved' : 'Loggerhead account not approved';
        const email = before.email ?? before.manager_email;
        if (email) await deps.notifier.send({ channel: 'email', destination: email, purpose: 'audit', subject, text, tenantId: id });
        if (before.mobile) await deps.notifier.send({ channel: 'sms', destination: before.mobile, purpose: 'audit', text, tenantId: id });
        // In-app too: the manager sees it on first login (a dialog when approved).
        if (deps.messages)
          await deps.messages.sendToManagers(id, { title: subject, content: text, type: 'audit', reminderMode: pass ? 2 : 1 });
      }
      void auth;
      return toTenant(after);
    },
  };
}
export type TenantsAdminService = ReturnType<typeof tenantsAdminService>;
