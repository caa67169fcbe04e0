import type { FnJsonSchema } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

/**
 * Who owns a block, model or category: a tenant id, or null for the public (platform) ones.
 * Writes take the owner; reads of one item take the caller and see its tenant's and public ones.
 */
export type Owner = string | null;

export interface BlockRow {
  id: string;
  tenant_id: string | null;
  name: string;
  display_name: string;
  description: string;
  json_schema: FnJsonSchema;
  models_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface CategoryRow {
  id: string;
  tenant_id: string | null;
  name: string;
  description: string;
  template: { fn_block_ids: string[] };
  created_at: Date;
}

export interface ModelRow {
  id: string;
  tenant_id: string | null;
  name: string;
  display_name: string | null;
  description: string | null;
  category_id: string | null;
  thing_type: number;
  can_channels: number;
  things_number: number;
  created_at: Date;
  updated_at: Date;
}

export interface ModelBlockRow {
  info_model_id: string;
  fn_block_id: string;
  name: string;
  display_name: string;
  tenant_id: string | null;
}

export interface BlockValues {
  name: string;
  display_name: string;
  description: string;
  json_schema: FnJsonSchema;
}

export interface ModelValues {
  name: string;
  display_name: string | null;
  description: string | null;
  category_id: string | null;
  thing_type: number;
  can_channels: number;
}

const ownerIs = (col: string, i: number) => `${col} is not distinct from $${i}::uuid`;

/** Models of the caller's tenant or public ones using the block. */
const MODELS_COUNT = `(select count(*)::int from info_model_fn_blocks mb join device_types dt on dt.id = mb.info_model_id
  where mb.fn_block_id = b.id and (dt.tenant_id is null or dt.tenant_id = $1)) as models_count`;
const BLOCK_COLS = `b.id, b.tenant_id, b.name, b.display_name, b.description, b.json_schema, b.created_at, b.updated_at, ${MODELS_COUNT}`;

/** Devices of the caller's tenant of the model. */
const THINGS_NUMBER = '(select count(*)::int from things t where t.info_model_id = m.id and t.tenant_id = $1) as things_number';
const MODEL_COLS = `m.id, m.tenant_id, m.name, m.display_name, m.description, m.category_id, m.thing_type, m.can_channels,
  m.created_at, m.updated_at, ${THINGS_NUMBER}`;

/** Function blocks, categories and info models. SQL only; scoped by the caller's tenant (or public). */
export function modelsRepository(raw: RawSql) {
  return {
    // ---- function blocks

    async blockPage(auth: Auth, owner: Owner, keyword: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId, owner];
      let where = ownerIs('b.tenant_id', 2);
      if (keyword)
        where += ` and (strpos(lower(b.name), lower($${params.push(keyword)})) > 0 or strpos(lower(b.display_name), lower($${params.length})) > 0)`;
      const { rows } = await raw.query<BlockRow>(
        `select ${BLOCK_COLS} from function_blocks b where ${where} order by b.created_at desc, b.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(
        `select count(*)::int as n from function_blocks b where $1::uuid is not null and ${where}`,
        params,
      );
      return { rows, total: c.rows[0].n };
    },

    /** A block of the caller's tenant or a public one. */
    async block(auth: Auth, id: string): Promise<BlockRow | null> {
      const { rows } = await raw.query<BlockRow>(
        `select ${BLOCK_COLS} from function_blocks b where b.id = $2 and (b.tenant_id is null or b.tenant_id = $1)`,
        [auth.tenantId, id],
      );
      return rows[0] ?? null;
    },

    /** Blocks among `ids` that the caller's tenant may use (its own and public). */
    async usableBlocks(auth: Auth, ids: string[]): Promise<{ id: string; tenant_id: string | null }[]> {
      if (!ids.length) return [];
      const { rows } = await raw.query<{ id: string; tenant_id: string | null }>(
        'select id, tenant_id from function_blocks where id = any($2::uuid[]) and (tenant_id is null or tenant_id = $1)',
        [auth.tenantId, ids],
      );
      return rows;
    },

    async blockByName(owner: Owner, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>(`select id from function_blocks where ${ownerIs('tenant_id', 1)} and name = $2`, [
        owner,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insertBlock(auth: Auth, owner: Owner, v: BlockValues): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into function_blocks (tenant_id, name, display_name, description, json_schema, created_by)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [owner, v.name, v.display_name, v.description, JSON.stringify(v.json_schema), auth.userId],
      );
      return rows[0].id;
    },

    async updateBlock(owner: Owner, id: string, v: BlockValues): Promise<boolean> {
      const r = await raw.query(
        `update function_blocks set name = $3, display_name = $4, description = $5, json_schema = $6, updated_at = now()
         where ${ownerIs('tenant_id', 1)} and id = $2 returning id`,
        [owner, id, v.name, v.display_name, v.description, JSON.stringify(v.json_schema)],
      );
      return r.rows.length > 0;
    },

    /** Models (of any tenant) that use the block: it cannot go while they do. */
    async blockUses(id: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from info_model_fn_blocks where fn_block_id = $1', [id]);
      return rows[0].n;
    },

    async removeBlock(owner: Owner, id: string): Promise<number> {
      const r = await raw.query(`delete from function_blocks where ${ownerIs('tenant_id', 1)} and id = $2 returning id`, [owner, id]);
      return r.rows.length;
    },

    // ---- categories

    async categories(auth: Auth): Promise<CategoryRow[]> {
      const { rows } = await raw.query<CategoryRow>(
        `select id, tenant_id, name, description, template, created_at from model_categories
         where tenant_id is null or tenant_id = $1 order by tenant_id nulls first, name`,
        [auth.tenantId],
      );
      return rows;
    },

    async category(auth: Auth, id: string): Promise<CategoryRow | null> {
      const { rows } = await raw.query<CategoryRow>(
        `select id, tenant_id, name, description, template, created_at from model_categories
         where id = $2 and (tenant_id is null or tenant_id = $1)`,
        [auth.tenantId, id],
      );
      return rows[0] ?? null;
    },

    async categoryByName(auth: Auth, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>('select id from model_categories where tenant_id = $1 and name = $2', [
        auth.tenantId,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insertCategory(auth: Auth, v: { name: string; description: string; template: { fn_block_ids: string[] } }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        'insert into model_categories (tenant_id, name, description, template) values ($1, $2, $3, $4) returning id',
        [auth.tenantId, v.name, v.description, JSON.stringify(v.template)],
      );
      return rows[0].id;
    },

    async updateCategory(
      auth: Auth,
      id: string,
      v: { name: string; description: string; template: { fn_block_ids: string[] } },
    ): Promise<boolean> {
      const r = await raw.query(
        'update model_categories set name = $3, description = $4, template = $5 where tenant_id = $1 and id = $2 returning id',
        [auth.tenantId, id, v.name, v.description, JSON.stringify(v.template)],
      );
      return r.rows.length > 0;
    },

    async removeCategory(auth: Auth, id: string): Promise<number> {
      const r = await raw.query('delete from model_categories where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return r.rows.length;
    },

    // ---- info models (device_types rows)

    async modelPage(
      auth: Auth,
      owner: Owner,
      q: { keyword?: string; category_id?: string },
      offset: number,
      limit: number,
    ): Promise<{ rows: ModelRow[]; total: number }> {
      const params: unknown[] = [auth.tenantId, owner];
      let where = ownerIs('m.tenant_id', 2);
      if (q.keyword)
        where += ` and (strpos(lower(m.name), lower($${params.push(q.keyword)})) > 0 or strpos(lower(coalesce(m.display_name, '')), lower($${params.length})) > 0)`;
      if (q.category_id) where += ` and m.category_id = $${params.push(q.category_id)}`;
      const { rows } = await raw.query<ModelRow>(
        `select ${MODEL_COLS} from device_types m where ${where} order by m.created_at desc, m.name limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(
        `select count(*)::int as n from device_types m where $1::uuid is not null and ${where}`,
        params,
      );
      return { rows, total: c.rows[0].n };
    },

    /** A model of the caller's tenant or a public one. */
    async model(auth: Auth, id: string): Promise<ModelRow | null> {
      const { rows } = await raw.query<ModelRow>(
        `select ${MODEL_COLS} from device_types m where m.id = $2 and (m.tenant_id is null or m.tenant_id = $1)`,
        [auth.tenantId, id],
      );
      return rows[0] ?? null;
    },

    async modelsBy(auth: Auth, ids: string[] | null, names: string[] | null): Promise<ModelRow[]> {
      const { rows } = await raw.query<ModelRow>(
        `select ${MODEL_COLS} from device_types m where (m.tenant_id is null or m.tenant_id = $1)
         and (($2::uuid[] is not null and m.id = any($2::uuid[])) or ($3::text[] is not null and m.name = any($3::text[])))
         order by m.tenant_id nulls first, m.name limit 1000`,
        [auth.tenantId, ids, names],
      );
      return rows;
    },

    async modelByName(owner: Owner, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>(`select id from device_types where ${ownerIs('tenant_id', 1)} and name = $2`, [
        owner,
        name,
      ]);
      return rows[0] ?? null;
    },

    async modelCount(auth: Auth): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from device_types where tenant_id = $1', [auth.tenantId]);
      return rows[0].n;
    },

    /** The function blocks of the models, in their order. */
    async modelBlocks(modelIds: string[]): Promise<ModelBlockRow[]> {
      if (!modelIds.length) return [];
      const { rows } = await raw.query<ModelBlockRow>(
        `select mb.info_model_id, mb.fn_block_id, b.name, b.display_name, b.tenant_id
         from info_model_fn_blocks mb join function_blocks b on b.id = mb.fn_block_id
         where mb.info_model_id = any($1::uuid[]) order by mb.sort, b.name`,
        [modelIds],
      );
      return rows;
    },

    /** The blocks of one model of the caller's tenant (or public), whole. */
    async modelBlocksFull(auth: Auth, modelId: string): Promise<BlockRow[]> {
      const { rows } = await raw.query<BlockRow>(
        `select ${BLOCK_COLS} from info_model_fn_blocks mb join function_blocks b on b.id = mb.fn_block_id
         join device_types m on m.id = mb.info_model_id
         where mb.info_model_id = $2 and (m.tenant_id is null or m.tenant_id = $1) order by mb.sort, b.name`,
        [auth.tenantId, modelId],
      );
      return rows;
    },

    /** Inserts a model with its blocks (in order), in one transaction. */
    async insertModel(owner: Owner, v: ModelValues, blockIds: string[]): Promise<string> {
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `insert into device_types (tenant_id, name, display_name, description, category_id, thing_type, can_channels)
           values ($1, $2, $3, $4, $5, $6, $7) returning id`,
          [owner, v.name, v.display_name, v.description, v.category_id, v.thing_type, v.can_channels],
        );
        const id = rows[0].id;
        for (const [i, b] of blockIds.entries())
          await tx.query('insert into info_model_fn_blocks (info_model_id, fn_block_id, sort) values ($1, $2, $3)', [id, b, i]);
        return id;
      });
    },

    /** Updates a model; `blockIds` (when given) replaces its blocks. */
    async updateModel(owner: Owner, id: string, v: ModelValues, blockIds: string[] | undefined): Promise<boolean> {
      return raw.transaction(async (tx) => {
        const r = await tx.query(
          `update device_types set name = $3, display_name = $4, description = $5, category_id = $6, thing_type = $7,
             can_channels = $8, updated_at = now() where ${ownerIs('tenant_id', 1)} and id = $2 returning id`,
          [owner, id, v.name, v.display_name, v.description, v.category_id, v.thing_type, v.can_channels],
        );
        if (!r.rows.length) return false;
        if (blockIds) {
          await tx.query('delete from info_model_fn_blocks where info_model_id = $1', [id]);
          for (const [i, b] of blockIds.entries())
            await tx.query('insert into info_model_fn_blocks (info_model_id, fn_block_id, sort) values ($1, $2, $3)', [id, b, i]);
        }
        return true;
      });
    },

    /** Devices of the model: of its tenant, or of every tenant for a public one. */
    async modelDevices(owner: Owner, id: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        `select count(*)::int as n from things where info_model_id = $2 and ($1::uuid is null or tenant_id = $1)`,
        [owner, id],
      );
      return rows[0].n;
    },

    /** What else hangs on a model: its blocks, display groups (any tenant's) and firmware files. */
    async modelDependants(id: string): Promise<{ blocks: number; groups: number; firmware: number }> {
      const { rows } = await raw.query<{ blocks: number; groups: number; firmware: number }>(
        `select (select count(*)::int from info_model_fn_blocks where info_model_id = $1) as blocks,
                (select count(*)::int from device_type_groups where device_type_id = $1) as groups,
                (select count(*)::int from firmwares where model_id = $1) as firmware`,
        [id],
      );
      return rows[0];
    },

    /** Deletes a model; its block links, display schema and firmware go with it (cascades). */
    async removeModel(owner: Owner, id: string): Promise<number> {
      const r = await raw.query(`delete from device_types where ${ownerIs('tenant_id', 1)} and id = $2 returning id`, [owner, id]);
      return r.rows.length;
    },
  };
}
export type ModelsRepository = ReturnType<typeof modelsRepository>;
