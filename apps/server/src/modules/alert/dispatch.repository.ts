import type { RawSql } from '../../db/client.ts';
import { customizationRepository } from '../tenant/customization.repository.ts';

/** What the alert dispatcher reads: a tenant's language, its SMS use this month, a rule's recipients. */
export function dispatchRepository(raw: RawSql) {
  return {
    /** The tenant's language (customisation `systemLanguage`, zh when unset). */
    language: customizationRepository(raw).language,

    /** Alert SMS and voice messages of the tenant since `since` that were not refused. */
    async alertSmsSince(tenantId: string, since: Date): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        `select count(*)::int as n from push_logs where tenant_id = $1 and purpose = 'alert' and channel in ('sms', 'voice')
          and status <> 'failed' and created_at >= $2`,
        [tenantId, since],
      );
      return rows[0].n;
    },

    /** Active sub-users of the tenant granted the device. */
    async grantedSubUsers(tenantId: string, thingsId: string): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>(
        `select u.id from users u join user_device_access a on a.user_id = u.id and a.things_id = $2
        where u.tenant_id = $1 and u.parent_user_id is not null and u.status = 1`,
        [tenantId, thingsId],
      );
      return rows.map((r) => r.id);
    },

    /** Whether the tenant is the system tenant (no package allowance applies). */
    async isSystemTenant(tenantId: string): Promise<boolean> {
      const tenant = await raw.query<{ is_system: boolean }>('select is_system from tenants where id = $1', [tenantId]);
      return Boolean(tenant.rows[0]?.is_system);
    },
  };
}
