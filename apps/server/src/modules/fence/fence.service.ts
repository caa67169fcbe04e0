import type { Fence, FenceValues } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { requireDevice, requireDevicesWritable } from '../things/things.access.ts';
import type { FenceRepository, FenceRow } from './fence.repository.ts';
import '../alert/alert.events.ts';

export function toFence(r: FenceRow): Fence {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    name: r.name,
    type: r.type,
    region: r.region,
    border: r.border,
    description: r.description,
    things_ids: r.things_ids ?? [],
    rule_count: Number(r.rule_count),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

const fenceError = (status: number, code: 'fence.name-used' | 'fence.in-use', field?: string) =>
  new ApiError(status, code, undefined, field ? { field } : undefined);

/**
 * E-fences (spec §3 e-fence, §9 radius and coordinate limits): CRUD and device binding. A fence
 * acting on devices (bound, or used by their trigger rules) is changed or deleted only by a caller
 * who may write to every one of them.
 */
export function fenceService(raw: RawSql, repo: FenceRepository, events: EventBus) {
  async function load(auth: Auth, id: string): Promise<FenceRow> {
    const f = await repo.get(auth, id);
    if (!f) throw notFound('E-fence not found');
    return f;
  }
  /** The fence, when the caller may change it. */
  async function loadForChange(auth: Auth, id: string): Promise<FenceRow> {
    const f = await load(auth, id);
    await requireDevicesWritable(raw, auth, await repo.linkedThings(auth, id));
    return f;
  }
  async function checkDevices(auth: Auth, ids: string[]) {
    for (const id of new Set(ids)) await requireDevice(raw, auth, id, 'write');
  }
  const changed = (tenantId: string, fenceId: string) => events.emit('fence.changed', { tenantId, fenceId });

  return {
    async list(auth: Auth, q: { name?: string; type?: string; things_id?: string; current_page: number; page_size: number }) {
      if (q.things_id) await requireDevice(raw, auth, q.things_id, 'read');
      const { rows, total } = await repo.page(
        auth,
        { name: q.name, type: q.type, thingsId: q.things_id },
        (q.current_page - 1) * q.page_size,
        q.page_size,
      );
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toFence) };
    },

    async get(auth: Auth, id: string): Promise<Fence> {
      return toFence(await load(auth, id));
    },

    async create(auth: Auth, v: FenceValues): Promise<Fence> {
      if (await repo.nameTaken(auth, v.name)) throw fenceError(409, 'fence.name-used', 'name');
      if (v.things_ids) await checkDevices(auth, v.things_ids);
      let id: string;
      try {
        id = await repo.insert(auth, v);
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw fenceError(409, 'fence.name-used', 'name');
        throw e;
      }
      if (v.things_ids?.length) await repo.bind(auth, id, v.things_ids);
      changed(auth.tenantId, id);
      return toFence((await repo.get(auth, id)) as FenceRow);
    },

    async update(auth: Auth, id: string, v: FenceValues): Promise<Fence> {
      await loadForChange(auth, id);
      if (await repo.nameTaken(auth, v.name, id)) throw fenceError(409, 'fence.name-used', 'name');
      if (v.things_ids) await checkDevices(auth, v.things_ids);
      await repo.update(auth, id, v);
      if (v.things_ids) await repo.bind(auth, id, v.things_ids);
      changed(auth.tenantId, id);
      return toFence((await repo.get(auth, id)) as FenceRow);
    },

    async bind(auth: Auth, id: string, thingsIds: string[]): Promise<Fence> {
      await loadForChange(auth, id);
      await checkDevices(auth, thingsIds);
      await repo.bind(auth, id, thingsIds);
      changed(auth.tenantId, id);
      return toFence((await repo.get(auth, id)) as FenceRow);
    },

    async remove(auth: Auth, id: string): Promise<void> {
      const f = await loadForChange(auth, id);
      if (Number(f.rule_count) > 0) throw fenceError(409, 'fence.in-use');
      await repo.remove(auth, id);
      changed(auth.tenantId, id);
    },
  };
}
export type FenceService = ReturnType<typeof fenceService>;
