import type { RawSql } from '../../db/client.ts';

export interface PluginRow {
  id: string;
  tenant_id: string;
  name: string;
  type: 'transform' | 'export';
  expression: string;
  description: string | null;
  header: string | null;
  file_extension: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLS = 'id, tenant_id, name, type, expression, description, header, file_extension, created_at, updated_at';

type Fields = Pick<PluginRow, 'name' | 'type' | 'expression' | 'description' | 'header' | 'file_extension'>;

/** SQL of data plugins; every query scoped by the tenant. */
export function pluginRepository(raw: RawSql) {
  return {
    async list(tenantId: string, q: { type?: string; keyword?: string; limit: number; offset: number }) {
      const where = ['tenant_id = $1'];
      const args: unknown[] = [tenantId];
      if (q.type) {
        args.push(q.type);
        where.push(`type = $${args.length}`);
      }
      if (q.keyword) {
        args.push(`%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.push(`name ilike $${args.length}`);
      }
      const w = where.join(' and ');
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from data_plugins where ${w}`, args);
      const { rows } = await raw.query<PluginRow>(
        `select ${COLS} from data_plugins where ${w} order by created_at desc, id limit $${args.length + 1} offset $${args.length + 2}`,
        [...args, q.limit, q.offset],
      );
      return { total: total.rows[0]?.n ?? 0, rows };
    },

    async get(tenantId: string, id: string): Promise<PluginRow | null> {
      const { rows } = await raw.query<PluginRow>(`select ${COLS} from data_plugins where tenant_id = $1 and id = $2`, [tenantId, id]);
      return rows[0] ?? null;
    },

    async insert(tenantId: string, userId: string | null, f: Fields): Promise<PluginRow> {
      const { rows } = await raw.query<PluginRow>(
        `insert into data_plugins (tenant_id, name, type, expression, description, header, file_extension, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLS}`,
        [tenantId, f.name, f.type, f.expression, f.description, f.header, f.file_extension, userId],
      );
      return rows[0];
    },

    async update(tenantId: string, id: string, f: Fields): Promise<PluginRow | null> {
      const { rows } = await raw.query<PluginRow>(
        `update data_plugins set name = $3, type = $4, expression = $5, description = $6, header = $7, file_extension = $8, updated_at = now()
         where tenant_id = $1 and id = $2 returning ${COLS}`,
        [tenantId, id, f.name, f.type, f.expression, f.description, f.header, f.file_extension],
      );
      return rows[0] ?? null;
    },

    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from data_plugins where tenant_id = $1 and id = $2 returning id', [tenantId, id]);
      return rows.length > 0;
    },

    /** Names of the tenant's forwarding rules that use the plugin. */
    async usedBy(tenantId: string, id: string): Promise<string[]> {
      const { rows } = await raw.query<{ name: string }>(
        'select name from forward_rules where tenant_id = $1 and transform_plugin_id = $2 order by name',
        [tenantId, id],
      );
      return rows.map((r) => r.name);
    },
  };
}
export type PluginRepository = ReturnType<typeof pluginRepository>;
