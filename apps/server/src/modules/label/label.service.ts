import { type Label, type LabelInput, MAX_BATCH_LABELS, type ThingLabel } from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import type { LabelRepository, LabelRow } from './label.repository.ts';

export interface LabelDeps {
  repo: LabelRepository;
  /** Package limit `label_num`: throws 403 quota.limit-reached. */
  assertCanAdd?: (auth: Auth, resource: 'label_num', current: number) => Promise<void>;
}

const toLabel = (r: LabelRow): Label => ({
  id: r.id,
  tenant_id: r.tenant_id,
  label: r.label,
  description: r.description,
  label_value: r.label_value,
  things_count: r.things_count,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const labelNotFound = () => new ApiError(404, 'label.not-found');

/**
 * The tenant's label registry (spec §3 label: label, description, label_value). Device labels refer
 * to its labels by id (`tenantLabelId`); `checkDeviceLabels` refuses any other.
 */
export function labelService(deps: LabelDeps) {
  const { repo } = deps;

  const values = (body: LabelInput) => ({
    label: body.label,
    description: body.description ?? null,
    label_value: body.label_value ?? null,
  });

  async function get(auth: Auth, id: string): Promise<Label> {
    const row = await repo.get(auth, id);
    if (!row) throw labelNotFound();
    return toLabel(row);
  }

  async function create(auth: Auth, body: LabelInput): Promise<Label> {
    if (await repo.byName(auth, body.label)) throw conflict('label.duplicate', undefined, 'label');
    if (deps.assertCanAdd) await deps.assertCanAdd(auth, 'label_num', await repo.count(auth));
    try {
      return get(auth, await repo.insert(auth, values(body)));
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('label.duplicate', undefined, 'label');
      throw e;
    }
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.page(auth, q.keyword, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toLabel) };
    },

    async batch(auth: Auth, ids?: string): Promise<Label[]> {
      let list: string[] | null = null;
      if (ids !== undefined) {
        list = ids
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (list.some((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)))
          throw badRequest('http.400', 'ids: comma-separated label ids', 'ids');
      }
      return (await repo.batch(auth, list, MAX_BATCH_LABELS)).map(toLabel);
    },

    get,
    create,

    async update(auth: Auth, id: string, body: LabelInput): Promise<Label> {
      const same = await repo.byName(auth, body.label);
      if (same && same.id !== id) throw conflict('label.duplicate', undefined, 'label');
      try {
        if (!(await repo.update(auth, id, values(body)))) throw labelNotFound();
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('label.duplicate', undefined, 'label');
        throw e;
      }
      return get(auth, id);
    },

    async remove(auth: Auth, ids: string[]) {
      const r = await repo.remove(auth, [...new Set(ids)]);
      if (r.deleted === 0) throw labelNotFound();
      return { deleted: r.deleted, things_updated: r.thingsUpdated };
    },

    /** Finds the tenant's label of this name, or makes it (a seeded demo's labels). */
    async ensure(auth: Auth, label: string, description: string | null = null): Promise<Label> {
      const row = await repo.byName(auth, label);
      return row ? toLabel(row) : create(auth, { label, description });
    },
  };
}
export type LabelService = ReturnType<typeof labelService>;

/**
 * Device labels refer to the registry: 400 `things.unknown-label` for a label that is not one of the
 * tenant's, `things.duplicate-label` for a label given twice.
 */
export async function checkDeviceLabels(repo: LabelRepository, auth: Auth, labels: ThingLabel[]): Promise<void> {
  if (!labels.length) return;
  const ids = labels.map((l) => l.tenantLabelId);
  if (new Set(ids).size !== ids.length) throw badRequest('things.duplicate-label', undefined, 'labels');
  const known = await repo.existing(auth, ids);
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw new ApiError(400, 'things.unknown-label', undefined, { field: 'labels', details: { tenantLabelId: missing } });
}
