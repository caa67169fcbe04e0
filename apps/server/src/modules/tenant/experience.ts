import { DEFAULT_DASHBOARD_TYPE } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { generatePassword, hashPassword } from '../../lib/passwords.ts';

export const DEMO_TENANT = 'demo';
export const DEMO_USERNAME = 'demo';

/**
 * The read-only experience account (spec §2 login button): a demo tenant and its
 * manager, created once. Its password is random and never shown: the only way in
 * is POST /control/sessions/experience, and every session of a demo tenant is read-only.
 */
export async function ensureExperienceTenant(raw: RawSql): Promise<{ tenantId: string; created: boolean }> {
  const existing = await raw.query<{ id: string }>('select id from tenants where is_demo limit 1');
  if (existing.rows.length) {
    await seedDefaultDashboard(raw, existing.rows[0].id);
    return { tenantId: existing.rows[0].id, created: false };
  }
  const hash = await hashPassword(generatePassword());
  return raw.transaction(async (tx) => {
    const t = await tx.query<{ id: string }>(
      `insert into tenants (name, organization_name, status, audited, is_demo, description)
       values ($1, 'Loggerhead demo', 1, true, true, 'Read-only experience account') on conflict (name) do nothing returning id`,
      [DEMO_TENANT],
    );
    // A real tenant already took the name: leave it alone, no experience account.
    if (!t.rows.length) return { tenantId: '', created: false };
    const tenantId = t.rows[0].id;
    await tx.query(
      `insert into users (tenant_id, username, name, nick_name, password_hash, is_manager) values ($1, $2, $2, 'Demo', $3, true)`,
      [tenantId, DEMO_USERNAME, hash],
    );
    await seedDefaultDashboard(tx, tenantId);
    return { tenantId, created: true };
  });
}

/** The demo manager's sessions are read-only, so its default dashboard is made here (spec §4). */
async function seedDefaultDashboard(raw: RawSql, tenantId: string): Promise<void> {
  await raw.query(
    `insert into dashboards (tenant_id, owner_id, business_type, name)
     select u.tenant_id, u.id, $2, u.id || $2 from users u where u.tenant_id = $1 and u.is_manager
     on conflict do nothing`,
    [tenantId, DEFAULT_DASHBOARD_TYPE],
  );
}
