import {
  EMPTY_FN_JSON_SCHEMA,
  type MappingEntity,
  type MappingEntityInput,
  MappingEntityInputSchema,
  type MappingRule,
  type MappingRuleInput,
  MappingRuleInputSchema,
  type MappingSource,
} from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import type { EntityRow, MappingRuleRepository, MappingRuleRow } from './mapping-rules.repository.ts';

const toRule = (r: MappingRuleRow): MappingRule => ({
  id: r.id,
  tenant_id: r.tenant_id,
  name: r.name,
  description: r.description,
  info_model_id: r.info_model_id,
  source: r.source,
  entity_id: r.entity_id,
  status: r.status,
  mappings: r.mappings,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

const toEntity = (r: EntityRow): MappingEntity => ({
  id: r.id,
  tenant_id: r.tenant_id,
  name: r.name,
  description: r.description,
  source: r.source,
  fields: r.fields,
  rules_count: r.rules_count,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

/** Where a raw key lands and how its value is changed on the way. */
export interface Mapped {
  target: string;
  scale: number;
  offset: number;
}
export type Mapping = ReadonlyMap<string, Mapped>;

const convert = (m: Mapped, v: unknown) =>
  m.scale === 1 && m.offset === 0 ? v : typeof v === 'number' ? Math.round((v * m.scale + m.offset) * 1e9) / 1e9 : v;

/**
 * Applies a mapping to free-form telemetry: each mapped key (a dotted key reaches into nested objects)
 * becomes its target property with its value converted; top-level keys no mapping used are left for
 * the model's own identifiers.
 */
export function mapFlat(
  flat: Record<string, unknown>,
  mapping: Mapping,
): { mapped: Record<string, unknown>; rest: Record<string, unknown> } {
  const mapped: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [key, m] of mapping) {
    let v: unknown = flat;
    for (const part of key in flat ? [key] : key.split('.'))
      v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[part] : undefined;
    if (v === undefined) continue;
    mapped[m.target] = convert(m, v);
    used.add(key in flat ? key : key.split('.')[0]);
  }
  const rest = Object.fromEntries(Object.entries(flat).filter(([k]) => !used.has(k)));
  return { mapped, rest };
}

/** Decoded signal values onto properties: the last value of each mapped signal. */
export function mapSignals(values: Record<string, number>, mapping: Mapping): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(values)) {
    const m = mapping.get(name);
    if (m) out[m.target] = convert(m, v);
  }
  return out;
}

const notFound = () => new ApiError(404, 'mapping-rule.not-found');
const CACHE_MS = 5_000;

/** Mapping rules (spec §7 mapping-rule-infos): CRUD checked against the model, and the lookup ingest uses. */
export function mappingRuleService(repo: MappingRuleRepository) {
  const cache = new Map<string, { at: number; rules: Awaited<ReturnType<MappingRuleRepository['enabled']>> }>();

  async function enabled(tenantId: string) {
    let hit = cache.get(tenantId);
    if (!hit || hit.at < Date.now() - CACHE_MS) {
      hit = { at: Date.now(), rules: await repo.enabled(tenantId) };
      cache.set(tenantId, hit);
    }
    return hit.rules;
  }

  async function values(auth: Auth, input: MappingRuleInput) {
    const v = MappingRuleInputSchema.parse(input);
    const blocks = await repo.modelBlocks(auth, v.info_model_id);
    if (!blocks) throw new ApiError(404, 'info-model.not-found', undefined, { field: 'info_model_id' });
    const types = new Map<string, number>();
    for (const b of blocks)
      for (const p of { ...EMPTY_FN_JSON_SCHEMA, ...b.json_schema }.status) types.set(`${b.name}.${p.identifier}`, p.data_type);
    const bad = v.mappings
      .filter((m) => !types.has(m.target) || ((m.scale !== 1 || m.offset !== 0) && types.get(m.target) !== 1))
      .map((m) => m.target);
    if (bad.length) throw new ApiError(400, 'mapping-rule.bad-target', undefined, { field: 'mappings', details: { targets: bad } });
    const keys = v.mappings.map((m) => m.source_key);
    const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
    if (twice.length)
      throw new ApiError(400, 'mapping-rule.duplicate-key', undefined, { field: 'mappings', details: { source_keys: twice } });
    if (v.entity_id) {
      const e = await repo.entity(auth, v.entity_id);
      if (!e) throw new ApiError(404, 'entity.not-found', undefined, { field: 'entity_id' });
      const known = new Set(e.fields.map((f) => f.key));
      const unknown = e.source === v.source ? keys.filter((k) => !known.has(k)) : keys;
      if (unknown.length)
        throw new ApiError(400, 'mapping-rule.unknown-key', undefined, { field: 'mappings', details: { source_keys: unknown } });
    }
    return v;
  }

  async function save(auth: Auth, id: string | null, input: MappingRuleInput): Promise<MappingRule> {
    const v = await values(auth, input);
    const same = await repo.byName(auth, v.name);
    if (same && same.id !== id) throw conflict('mapping-rule.duplicate', undefined, 'name');
    if (id === null) id = await repo.insert(auth, v);
    else if (!(await repo.update(auth, id, v))) throw notFound();
    cache.delete(auth.tenantId);
    const row = await repo.get(auth, id);
    if (!row) throw notFound();
    return toRule(row);
  }

  async function saveEntity(auth: Auth, id: string | null, input: MappingEntityInput): Promise<MappingEntity> {
    const v = MappingEntityInputSchema.parse(input);
    const keys = v.fields.map((f) => f.key);
    const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
    if (twice.length) throw new ApiError(400, 'entity.duplicate-key', undefined, { field: 'fields', details: { keys: twice } });
    const same = await repo.entityByName(auth, v.name);
    if (same && same.id !== id) throw conflict('entity.duplicate', undefined, 'name');
    if (id === null) id = await repo.insertEntity(auth, v);
    else if (!(await repo.updateEntity(auth, id, v))) throw new ApiError(404, 'entity.not-found');
    const row = await repo.entity(auth, id);
    if (!row) throw new ApiError(404, 'entity.not-found');
    return toEntity(row);
  }

  return {
    /** Entities (spec §7 /mapping-mgmt): the raw shapes rules take their keys from. A rule keeps its keys when its entity goes. */
    entities: {
      async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
        if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
        const { rows, total } = await repo.entityPage(auth, q.keyword, (q.current_page - 1) * q.page_size, q.page_size);
        return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toEntity) };
      },
      async get(auth: Auth, id: string) {
        const r = await repo.entity(auth, id);
        if (!r) throw new ApiError(404, 'entity.not-found');
        return toEntity(r);
      },
      create: (auth: Auth, body: MappingEntityInput) => saveEntity(auth, null, body),
      update: (auth: Auth, id: string, body: MappingEntityInput) => saveEntity(auth, id, body),
      async remove(auth: Auth, id: string) {
        if (!(await repo.removeEntity(auth, id))) throw new ApiError(404, 'entity.not-found');
        return { ok: true as const };
      },
    },

    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string; info_model_id?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.page(auth, q, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toRule) };
    },
    async get(auth: Auth, id: string) {
      const r = await repo.get(auth, id);
      if (!r) throw notFound();
      return toRule(r);
    },
    create: (auth: Auth, body: MappingRuleInput) => save(auth, null, body),
    update: (auth: Auth, id: string, body: MappingRuleInput) => save(auth, id, body),
    /** Whether any enabled rule of the tenant reads this source (ingest asks before looking the device up). */
    async uses(tenantId: string, source: MappingSource): Promise<boolean> {
      return (await enabled(tenantId)).some((r) => r.source === source);
    },
    async remove(auth: Auth, id: string) {
      if (!(await repo.remove(auth, id))) throw notFound();
      cache.delete(auth.tenantId);
      return { ok: true as const };
    },

    /**
     * The mapping of a model's devices from one source (raw key → target), from the tenant's enabled
     * rules; cached 5 s (at once on the copy that changed a rule).
     */
    async mapping(tenantId: string, modelId: string, source: MappingSource): Promise<Mapping> {
      const out = new Map<string, Mapped>();
      for (const r of await enabled(tenantId))
        if (r.info_model_id === modelId && r.source === source)
          for (const m of r.mappings)
            if (!out.has(m.source_key)) out.set(m.source_key, { target: m.target, scale: m.scale, offset: m.offset });
      return out;
    },
  };
}
export type MappingRuleService = ReturnType<typeof mappingRuleService>;
