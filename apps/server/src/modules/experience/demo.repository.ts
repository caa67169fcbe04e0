import type { RawSql } from '../../db/client.ts';

/** What the experience account's seeding and live drive look up in the demo tenant. */
export function demoRepository(raw: RawSql) {
  return {
    /** The demo tenant's (first) manager. */
    async manager(): Promise<{ id: string; tenant_id: string } | null> {
      const { rows } = await raw.query<{ id: string; tenant_id: string }>(
        `select u.id, u.tenant_id from users u join tenants t on t.id = u.tenant_id
      where t.is_demo and u.is_manager order by u.created_at limit 1`,
      );
      return rows[0] ?? null;
    },

    async deviceId(tenantId: string, deviceId: string): Promise<string | null> {
      const found = await raw.query<{ id: string }>('select id from things where tenant_id = $1 and third_things_id = $2', [
        tenantId,
        deviceId,
      ]);
      return found.rows[0]?.id ?? null;
    },

    async deviceKey(tenantId: string, deviceId: string): Promise<string | null> {
      const { rows } = await raw.query<{ things_key: string }>(
        'select things_key from things where tenant_id = $1 and third_things_id = $2',
        [tenantId, deviceId],
      );
      return rows[0]?.things_key ?? null;
    },

    async dashboardId(tenantId: string, businessType: string): Promise<string | null> {
      const board = await raw.query<{ id: string }>('select id from dashboards where tenant_id = $1 and business_type = $2', [
        tenantId,
        businessType,
      ]);
      return board.rows[0]?.id ?? null;
    },

    async ruleNames(tenantId: string): Promise<string[]> {
      return (await raw.query<{ name: string }>('select name from trigger_rules where tenant_id = $1', [tenantId])).rows.map((r) => r.name);
    },

    /** Whether the device's history was written (its upload event carries `marker`) and is still stored. */
    async historySeeded(thingsId: string, marker: string): Promise<boolean> {
      const marked = await raw.query(
        `select 1 from device_events e where e.things_id = $1 and e.kind = 'upload' and e.detail->>'source' = $2
          and exists (select 1 from storage_usage u where u.things_id = e.things_id)`,
        [thingsId, marker],
      );
      return marked.rows.length > 0;
    },
  };
}
