import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface VehicleRow {
  id: string;
  tenant_id: string;
  name: string;
  vin: string | null;
  description: string | null;
  channels: { name: string; things_id: string; channel: number }[];
  created_at: Date;
  updated_at: Date;
}

export function vehiclesRepository(raw: RawSql) {
  return {
    async list(auth: Auth, page: number, size: number, keyword?: string) {
      const params: unknown[] = [auth.tenantId];
      let where = 'tenant_id = $1';
      if (keyword) {
        params.push(`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where += ` and (name ilike $2 or vin ilike $2)`;
      }
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from vehicles where ${where}`, params);
      const { rows } = await raw.query<VehicleRow>(
        `select * from vehicles where ${where} order by created_at desc, id limit ${size} offset ${(page - 1) * size}`,
        params,
      );
      return { total: total.rows[0]?.n ?? 0, rows };
    },
    async get(auth: Auth, id: string): Promise<VehicleRow | null> {
      const { rows } = await raw.query<VehicleRow>('select * from vehicles where tenant_id = $1 and id = $2', [auth.tenantId, id]);
      return rows[0] ?? null;
    },
    async insert(auth: Auth, v: Pick<VehicleRow, 'name' | 'vin' | 'description' | 'channels'>): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        'insert into vehicles (tenant_id, name, vin, description, channels) values ($1,$2,$3,$4,$5::jsonb) returning id',
        [auth.tenantId, v.name, v.vin, v.description, JSON.stringify(v.channels)],
      );
      return rows[0].id;
    },
    async update(auth: Auth, id: string, v: Pick<VehicleRow, 'name' | 'vin' | 'description' | 'channels'>): Promise<void> {
      await raw.query(
        'update vehicles set name = $3, vin = $4, description = $5, channels = $6::jsonb, updated_at = now() where tenant_id = $1 and id = $2',
        [auth.tenantId, id, v.name, v.vin, v.description, JSON.stringify(v.channels)],
      );
    },
    async remove(auth: Auth, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from vehicles where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return rows.length > 0;
    },
    /** Device ids and channel counts of the tenant's devices named by a vehicle's channels. */
    async devices(auth: Auth, ids: string[]) {
      if (!ids.length) return new Map<string, { third_things_id: string; can_channels: number }>();
      const { rows } = await raw.query<{ id: string; third_things_id: string; can_channels: number }>(
        `select t.id, t.third_things_id, dt.can_channels from things t join device_types dt on dt.id = t.info_model_id
          where t.tenant_id = $1 and t.id = any($2::uuid[])`,
        [auth.tenantId, ids],
      );
      return new Map(rows.map((r) => [r.id, r]));
    },
  };
}
