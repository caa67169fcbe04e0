import type { RawSql } from '../../db/client.ts';

/** The platform tenant and its first system manager. */
export function bootstrapRepository(raw: RawSql) {
  return {
    async userExists(tenantName: string, username: string): Promise<boolean> {
      const { rows } = await raw.query(
        'select u.id from users u join tenants t on t.id = u.tenant_id where t.name = $1 and u.username = $2 limit 1',
        [tenantName, username],
      );
      return rows.length > 0;
    },

    /** Creates the system tenant unless it exists; returns its id. */
    async ensureSystemTenant(name: string, organizationName: string): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into tenants (name, organization_name, is_system, status, audited) values ($1, $2, true, 1, true)
         on conflict do nothing returning id`,
        [name, organizationName],
      );
      return rows[0]?.id ?? (await raw.query<{ id: string }>('select id from tenants where name = $1', [name])).rows[0].id;
    },

    async insertSystemManager(tenantId: string, username: string, passwordHash: string): Promise<void> {
      await raw.query(
        `insert into users (tenant_id, username, name, password_hash, is_manager, system_manager) values ($1, $2, $2, $3, true, true)`,
        [tenantId, username, passwordHash],
      );
    },
  };
}
