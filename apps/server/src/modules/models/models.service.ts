import {
  EMPTY_FN_JSON_SCHEMA,
  type FunctionBlock,
  type FunctionBlockInput,
  FunctionBlockInputSchema,
  type InfoModel,
  type InfoModelInput,
  InfoModelInputSchema,
  type ModelCategory,
  type ModelCategoryInput,
  ModelCategoryInputSchema,
} from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import type { BlockRow, CategoryRow, ModelBlockRow, ModelRow, ModelsRepository, Owner } from './models.repository.ts';

export interface ModelsDeps {
  repo: ModelsRepository;
  /** Package limit `info_model`: throws 403 quota.limit-reached. */
  assertCanAdd?: (auth: Auth, resource: 'info_model', current: number) => Promise<void>;
}

const toBlock = (r: BlockRow): FunctionBlock => ({
  id: r.id,
  tenant_id: r.tenant_id,
  public: r.tenant_id === null,
  name: r.name,
  display_name: r.display_name,
  description: r.description,
  json_schema: { ...EMPTY_FN_JSON_SCHEMA, ...r.json_schema },
  models_count: r.models_count,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

const toCategory = (r: CategoryRow): ModelCategory => ({
  id: r.id,
  tenant_id: r.tenant_id,
  public: r.tenant_id === null,
  name: r.name,
  description: r.description,
  template: { fn_block_ids: r.template?.fn_block_ids ?? [] },
  created_at: ms(r.created_at) ?? 0,
});

function toModel(r: ModelRow, blocks: ModelBlockRow[]): InfoModel {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    public: r.tenant_id === null,
    name: r.name,
    display_name: r.display_name,
    description: r.description,
    category_id: r.category_id,
    thing_type: r.thing_type,
    can_channels: r.can_channels,
    info_model_fn_blocks: blocks
      .filter((b) => b.info_model_id === r.id)
      .map((b) => ({ fn_block_id: b.fn_block_id, name: b.name, display_name: b.display_name, public: b.tenant_id === null })),
    things_number: r.things_number,
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const blockNotFound = () => new ApiError(404, 'function-block.not-found');
const modelNotFound = () => new ApiError(404, 'info-model.not-found');
const categoryNotFound = () => new ApiError(404, 'category.not-found');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const list = (s: string | undefined) =>
  s === undefined
    ? null
    : s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);

/**
 * Function blocks, categories and info models (spec §3, §7 /mapping-mgmt; decision 0123). Public
 * ones (owner null) are written by system managers only; tenants read them and build on them.
 */
export function modelsService(deps: ModelsDeps) {
  const { repo } = deps;

  // ---- function blocks

  async function getBlock(auth: Auth, id: string): Promise<FunctionBlock> {
    const row = await repo.block(auth, id);
    if (!row) throw blockNotFound();
    return toBlock(row);
  }

  async function blockPage(auth: Auth, owner: Owner, q: { current_page: number; page_size: number; keyword?: string }) {
    if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
    const { rows, total } = await repo.blockPage(auth, owner, q.keyword, (q.current_page - 1) * q.page_size, q.page_size);
    return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toBlock) };
  }

  async function saveBlock(auth: Auth, owner: Owner, id: string | null, input: FunctionBlockInput): Promise<FunctionBlock> {
    const v = FunctionBlockInputSchema.parse(input);
    const same = await repo.blockByName(owner, v.name);
    if (same && same.id !== id) throw conflict('function-block.duplicate', undefined, 'name');
    try {
      if (id === null) id = await repo.insertBlock(auth, owner, v);
      else if (!(await repo.updateBlock(owner, id, v))) throw blockNotFound();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('function-block.duplicate', undefined, 'name');
      throw e;
    }
    return getBlock(auth, id);
  }

  async function removeBlock(auth: Auth, owner: Owner, id: string) {
    const row = await repo.block(auth, id);
    if (!row || row.tenant_id !== owner) throw blockNotFound();
    const uses = await repo.blockUses(id);
    if (uses > 0) throw new ApiError(409, 'function-block.in-use', undefined, { details: { models: uses } });
    return { deleted: await repo.removeBlock(owner, id) };
  }

  // ---- info models

  async function withBlocks(rows: ModelRow[]): Promise<InfoModel[]> {
    const blocks = await repo.modelBlocks(rows.map((r) => r.id));
    return rows.map((r) => toModel(r, blocks));
  }

  async function getModel(auth: Auth, id: string): Promise<InfoModel> {
    const row = await repo.model(auth, id);
    if (!row) throw modelNotFound();
    return (await withBlocks([row]))[0];
  }

  /** The blocks a model may use: a public model public ones only, a tenant's its own and public ones. */
  async function checkBlocks(auth: Auth, owner: Owner, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const usable = await repo.usableBlocks(auth, unique);
    const ok = new Set(usable.filter((b) => owner !== null || b.tenant_id === null).map((b) => b.id));
    const missing = unique.filter((id) => !ok.has(id));
    if (missing.length)
      throw new ApiError(400, 'info-model.unknown-block', undefined, { field: 'info_model_fn_blocks', details: { fn_block_ids: missing } });
    return unique;
  }

  async function modelValues(auth: Auth, owner: Owner, input: InfoModelInput, creating: boolean) {
    const v = InfoModelInputSchema.parse(input);
    let blocks = v.info_model_fn_blocks;
    if (v.category_id) {
      const cat = await repo.category(auth, v.category_id);
      if (!cat || (owner === null && cat.tenant_id !== null))
        throw new ApiError(404, 'category.not-found', undefined, { field: 'category_id' });
      if (creating && blocks === undefined) blocks = cat.template?.fn_block_ids ?? [];
    }
    if (blocks !== undefined) blocks = await checkBlocks(auth, owner, blocks);
    else if (creating) blocks = [];
    return {
      values: {
        name: v.name,
        display_name: v.display_name ?? null,
        description: v.description ?? null,
        category_id: v.category_id ?? null,
        thing_type: v.thing_type,
        can_channels: v.can_channels,
      },
      blocks,
    };
  }

  async function createModel(auth: Auth, owner: Owner, input: InfoModelInput): Promise<InfoModel> {
    const { values, blocks } = await modelValues(auth, owner, input, true);
    if (await repo.modelByName(owner, values.name)) throw conflict('info-model.duplicate', undefined, 'name');
    if (owner !== null && deps.assertCanAdd) await deps.assertCanAdd(auth, 'info_model', await repo.modelCount(auth));
    try {
      return getModel(auth, await repo.insertModel(owner, values, blocks ?? []));
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('info-model.duplicate', undefined, 'name');
      throw e;
    }
  }

  async function updateModel(auth: Auth, owner: Owner, id: string, input: InfoModelInput): Promise<InfoModel> {
    const { values, blocks } = await modelValues(auth, owner, input, false);
    const same = await repo.modelByName(owner, values.name);
    if (same && same.id !== id) throw conflict('info-model.duplicate', undefined, 'name');
    try {
      if (!(await repo.updateModel(owner, id, values, blocks))) throw modelNotFound();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('info-model.duplicate', undefined, 'name');
      throw e;
    }
    return getModel(auth, id);
  }

  return {
    jsonSchemaInit: () => structuredClone(EMPTY_FN_JSON_SCHEMA),
    listBlocks: (auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) => blockPage(auth, auth.tenantId, q),
    listPublicBlocks: (auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) => blockPage(auth, null, q),
    getBlock,
    createBlock: (auth: Auth, body: FunctionBlockInput) => saveBlock(auth, auth.tenantId, null, body),
    updateBlock: (auth: Auth, id: string, body: FunctionBlockInput) => saveBlock(auth, auth.tenantId, id, body),
    removeBlock: (auth: Auth, id: string) => removeBlock(auth, auth.tenantId, id),
    createPublicBlock: (auth: Auth, body: FunctionBlockInput) => saveBlock(auth, null, null, body),
    updatePublicBlock: (auth: Auth, id: string, body: FunctionBlockInput) => saveBlock(auth, null, id, body),
    removePublicBlock: (auth: Auth, id: string) => removeBlock(auth, null, id),

    async categories(auth: Auth): Promise<ModelCategory[]> {
      return (await repo.categories(auth)).map(toCategory);
    },

    async saveCategory(auth: Auth, id: string | null, input: ModelCategoryInput): Promise<ModelCategory> {
      const v = ModelCategoryInputSchema.parse(input);
      const fn_block_ids = await checkBlocks(auth, auth.tenantId, v.template.fn_block_ids);
      const same = await repo.categoryByName(auth, v.name);
      if (same && same.id !== id) throw conflict('category.duplicate', undefined, 'name');
      const values = { name: v.name, description: v.description, template: { fn_block_ids } };
      if (id === null) id = await repo.insertCategory(auth, values);
      else if (!(await repo.updateCategory(auth, id, values))) throw categoryNotFound();
      const row = await repo.category(auth, id);
      if (!row) throw categoryNotFound();
      return toCategory(row);
    },

    async removeCategory(auth: Auth, id: string) {
      const n = await repo.removeCategory(auth, id);
      if (!n) throw categoryNotFound();
      return { deleted: n };
    },

    async listModels(auth: Auth, owner: Owner, q: { current_page: number; page_size: number; keyword?: string; category_id?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.modelPage(auth, owner, q, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: await withBlocks(rows) };
    },

    async batchModels(auth: Auth, q: { ids?: string; names?: string }): Promise<InfoModel[]> {
      const ids = list(q.ids);
      const names = list(q.names);
      if (ids?.some((id) => !UUID.test(id))) throw badRequest('http.400', 'ids: comma-separated info model ids', 'ids');
      if (!ids?.length && !names?.length) return [];
      return withBlocks(await repo.modelsBy(auth, ids, names));
    },

    getModel,
    createModel,
    updateModel,

    async modelBlocks(auth: Auth, id: string): Promise<FunctionBlock[]> {
      if (!(await repo.model(auth, id))) throw modelNotFound();
      return (await repo.modelBlocksFull(auth, id)).map(toBlock);
    },

    async publicToTenant(auth: Auth, body: { info_model_id: string; name?: string }): Promise<InfoModel> {
      const src = await repo.model(auth, body.info_model_id);
      if (!src || src.tenant_id !== null)
        throw new ApiError(404, 'info-model.not-found', 'Not a public info model', { field: 'info_model_id' });
      const blocks = await repo.modelBlocks([src.id]);
      return createModel(auth, auth.tenantId, {
        name: body.name ?? src.name,
        display_name: src.display_name,
        description: src.description,
        category_id: src.category_id,
        thing_type: src.thing_type,
        can_channels: src.can_channels,
        info_model_fn_blocks: blocks.map((b) => b.fn_block_id),
      });
    },

    /**
     * Refused while devices use the model (`iot-things.999991` when they cannot be counted); without
     * `force` also while blocks, display groups or firmware hang on it.
     */
    async removeModel(auth: Auth, owner: Owner, id: string, force: boolean) {
      const row = await repo.model(auth, id);
      if (!row || row.tenant_id !== owner) throw modelNotFound();
      let devices: number;
      try {
        devices = await repo.modelDevices(owner, id);
      } catch {
        throw new ApiError(500, 'iot-things.999991');
      }
      if (devices > 0) throw new ApiError(409, 'info-model.in-use', undefined, { details: { things_number: devices } });
      if (!force) {
        const d = await repo.modelDependants(id);
        if (d.blocks + d.groups + d.firmware > 0) throw new ApiError(409, 'info-model.not-empty', undefined, { details: d });
      }
      return { deleted: await repo.removeModel(owner, id) };
    },
  };
}
export type ModelsService = ReturnType<typeof modelsService>;
