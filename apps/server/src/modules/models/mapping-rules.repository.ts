import type { EntityField, FnJsonSchema, MappingItem } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface MappingRuleRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  info_model_id: string;
  source: 'json' | 'can';
  entity_id: string | null;
  status: number;
  mappings: MappingItem[];
  created_at: Date;
  updated_at: Date;
}

export type MappingRuleValues = Pick<
  MappingRuleRow,
  'name' | 'description' | 'info_model_id' | 'source' | 'entity_id' | 'status' | 'mappings'
>;

export interface EntityRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  source: 'json' | 'can';
  fields: EntityField[];
  rules_count: number;
  created_at: Date;
  updated_at: Date;
}
export type EntityValues = Pick<EntityRow, 'name' | 'description' | 'source' | 'fields'>;

const COLS = 'id, tenant_id, name, description, info_model_id, source, entity_id, status, mappings, created_at, updated_at';
const ENTITY_COLS = `e.id, e.tenant_id, e.name, e.description, e.source, e.fields, e.created_at, e.updated_at,
  (select count(*)::int from mapping_rules r where r.entity_id = e.id) as rules_count`;

/** Mapping rules. SQL only; the API side is scoped by the caller's tenant, the ingest side by the device's. */
export function mappingRuleRepository(raw: RawSql) {
  return {
    async page(auth: Auth, q: { keyword?: string; info_model_id?: string }, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      let where = 'tenant_id = $1';
      if (q.keyword) where += ` and name ilike $${params.push(`%${q.keyword.replace(/[\\%_]/g, '\\$&')}%`)}`;
      if (q.info_model_id) where += ` and info_model_id = $${params.push(q.info_model_id)}`;
      const { rows } = await raw.query<MappingRuleRow>(
        `select ${COLS} from mapping_rules where ${where} order by created_at desc, id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from mapping_rules where ${where}`, params);
      return { rows, total: c.rows[0].n };
    },

    async get(auth: Auth, id: string): Promise<MappingRuleRow | null> {
      const { rows } = await raw.query<MappingRuleRow>(`select ${COLS} from mapping_rules where tenant_id = $1 and id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async byName(auth: Auth, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>('select id from mapping_rules where tenant_id = $1 and lower(name) = lower($2)', [
        auth.tenantId,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insert(auth: Auth, v: MappingRuleValues): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into mapping_rules (tenant_id, name, description, info_model_id, source, entity_id, status, mappings, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
        [auth.tenantId, v.name, v.description, v.info_model_id, v.source, v.entity_id, v.status, JSON.stringify(v.mappings), auth.userId],
      );
      return rows[0].id;
    },

    async update(auth: Auth, id: string, v: MappingRuleValues): Promise<boolean> {
      const r = await raw.query(
        `update mapping_rules set name = $3, description = $4, info_model_id = $5, source = $6, entity_id = $7, status = $8, mappings = $9,
           updated_at = now()
         where tenant_id = $1 and id = $2 returning id`,
        [auth.tenantId, id, v.name, v.description, v.info_model_id, v.source, v.entity_id, v.status, JSON.stringify(v.mappings)],
      );
      return r.rows.length > 0;
    },

    async remove(auth: Auth, id: string): Promise<boolean> {
      const r = await raw.query('delete from mapping_rules where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return r.rows.length > 0;
    },

    /** The function blocks of a model the tenant may use (its own or a public one); null when there is no such model. */
    async modelBlocks(auth: Auth, modelId: string): Promise<{ name: string; json_schema: FnJsonSchema }[] | null> {
      const m = await raw.query('select 1 from device_types where id = $1 and (tenant_id = $2 or tenant_id is null)', [
        modelId,
        auth.tenantId,
      ]);
      if (!m.rows.length) return null;
      const { rows } = await raw.query<{ name: string; json_schema: FnJsonSchema }>(
        `select b.name, b.json_schema from info_model_fn_blocks mb join function_blocks b on b.id = mb.fn_block_id
         where mb.info_model_id = $1 order by mb.sort, b.name`,
        [modelId],
      );
      return rows;
    },

    async entityPage(auth: Auth, keyword: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      let where = 'e.tenant_id = $1';
      if (keyword) where += ` and e.name ilike $${params.push(`%${keyword.replace(/[\\%_]/g, '\\$&')}%`)}`;
      const { rows } = await raw.query<EntityRow>(
        `select ${ENTITY_COLS} from mapping_entities e where ${where} order by e.created_at desc, e.id
         limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from mapping_entities e where ${where}`, params);
      return { rows, total: c.rows[0].n };
    },

    async entity(auth: Auth, id: string): Promise<EntityRow | null> {
      const { rows } = await raw.query<EntityRow>(`select ${ENTITY_COLS} from mapping_entities e where e.tenant_id = $1 and e.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async entityByName(auth: Auth, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>('select id from mapping_entities where tenant_id = $1 and lower(name) = lower($2)', [
        auth.tenantId,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insertEntity(auth: Auth, v: EntityValues): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into mapping_entities (tenant_id, name, description, source, fields, created_by)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [auth.tenantId, v.name, v.description, v.source, JSON.stringify(v.fields), auth.userId],
      );
      return rows[0].id;
    },

    async updateEntity(auth: Auth, id: string, v: EntityValues): Promise<boolean> {
      const r = await raw.query(
        `update mapping_entities set name = $3, description = $4, source = $5, fields = $6, updated_at = now()
         where tenant_id = $1 and id = $2 returning id`,
        [auth.tenantId, id, v.name, v.description, v.source, JSON.stringify(v.fields)],
      );
      return r.rows.length > 0;
    },

    async removeEntity(auth: Auth, id: string): Promise<boolean> {
      const r = await raw.query('delete from mapping_entities where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return r.rows.length > 0;
    },

    /** The enabled rules of a tenant, for ingest (oldest first: an earlier rule's key wins). */
    async enabled(tenantId: string): Promise<Pick<MappingRuleRow, 'info_model_id' | 'source' | 'mappings'>[]> {
      const { rows } = await raw.query<Pick<MappingRuleRow, 'info_model_id' | 'source' | 'mappings'>>(
        'select info_model_id, source, mappings from mapping_rules where tenant_id = $1 and status = 1 order by created_at, id',
        [tenantId],
      );
      return rows;
    },
  };
}
export type MappingRuleRepository = ReturnType<typeof mappingRuleRepository>;
