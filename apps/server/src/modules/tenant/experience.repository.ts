import type { RawSql } from '../../db/client.ts';

/** The read-only experience account: the demo tenant, its manager and its default dashboard. */
export function experienceRepository(raw: RawSql) {
  return {
    async demoTenant(): Promise<string | null> {
      const existing = await raw.query<{ id: string }>('select id from tenants where is_demo limit 1');
      return existing.rows[0]?.id ?? null;
    },

    /** Null when a tenant of that name exists already. */
    async insertDemoTenant(name: string): Promise<string | null> {
      const t = await raw.query<{ id: string }>(
        `insert into tenants (name, organization_name, status, audited, is_demo, description)
       values ($1, 'Loggerhead demo', 1, true, true, 'Read-only experience account') on conflict (name) do nothing returning id`,
        [name],
      );
      return t.rows[0]?.id ?? null;
    },

    async insertDemoManager(tenantId: string, username: string, passwordHash: string): Promise<void> {
      await raw.query(
        `insert into users (tenant_id, username, name, nick_name, password_hash, is_manager) values ($1, $2, $2, 'Demo', $3, true)`,
        [tenantId, username, passwordHash],
      );
    },

    /** The manager's default dashboard, unless it has one. */
    async seedDefaultDashboard(tenantId: string, businessType: string): Promise<void> {
      await raw.query(
        `insert into dashboards (tenant_id, owner_id, business_type, name)
     select u.tenant_id, u.id, $2, u.id || $2 from users u where u.tenant_id = $1 and u.is_manager
     on conflict do nothing`,
        [tenantId, businessType],
      );
    },
  };
}
