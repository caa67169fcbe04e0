import type { RawSql } from '../../db/client.ts';

export interface DashboardRow {
  id: string;
  tenant_id: string;
  owner_id: string;
  business_type: string;
  name: string;
  created_at: Date;
}

/** A tenant's dashboards. */
export function dashboardRepository(raw: RawSql) {
  return {
    async list(tenantId: string, businessType: string | null): Promise<DashboardRow[]> {
      const { rows } = await raw.query<DashboardRow>(
        `select id, tenant_id, owner_id, business_type, name, created_at from dashboards
          where tenant_id = $1 and ($2::text is null or business_type = $2) order by created_at, id`,
        [tenantId, businessType],
      );
      return rows;
    },

    /** Null when the dashboard exists already (one default dashboard per tenant). */
    async insert(tenantId: string, ownerId: string, businessType: string, name: string): Promise<DashboardRow | null> {
      const { rows } = await raw.query<DashboardRow>(
        `insert into dashboards(tenant_id, owner_id, business_type, name) values ($1, $2, $3, $4)
         on conflict do nothing returning id, tenant_id, owner_id, business_type, name, created_at`,
        [tenantId, ownerId, businessType, name],
      );
      return rows[0] ?? null;
    },
  };
}
