import { randomBytes } from 'node:crypto';
import {
  DEVICE_ID_RE,
  type DeviceEvent,
  type DeviceType,
  type Thing,
  type ThingCreate,
  type ThingListQuery,
  type ThingStatus,
  type ThingUpdate,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { csvLine } from '../../lib/csv.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { hasControlCharacter } from '../../lib/input-guard.ts';
import { groupRepository } from '../group/group.repository.ts';
import { labelRepository } from '../label/label.repository.ts';
import { checkDeviceLabels } from '../label/label.service.ts';
import { requireDevice, requireDevicesWritable } from './things.access.ts';
import { type DeviceTypeRow, type ThingChannel, type ThingRow, thingsRepository } from './things.repository.ts';

export interface ThingsDeps {
  raw: RawSql;
  /** Called when a device is added, re-keyed or deleted: caches drop it, its connection is closed, its broker account follows. */
  onCredentialsChanged?: (deviceId: string) => void;
  /** Called when a device is deleted: open sockets that read it stop reading it. */
  onRemoved?: (tenantId: string, thingsId: string) => void;
  /** Called when a device's gateway changes: the ingest re-reads which gateway may forward for it. */
  onParentChanged?: (deviceId: string) => void;
  /** Package limits (things_num, can_things_num): throws 403 quota.limit-reached. */
  assertCanAdd?: (auth: Auth, resource: 'things_num' | 'can_things_num', current: number) => Promise<void>;
}

/** 128-bit random key, hex: the MQTT password of the device. */
export const newThingsKey = () => randomBytes(16).toString('hex');

export function toThing(r: ThingRow): Thing {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    third_things_id: r.third_things_id,
    name: r.name,
    description: r.description,
    info_model_id: r.info_model_id,
    info_model_name: r.info_model_name,
    can_channels: r.can_channels,
    thing_type: r.thing_type,
    parent_things_id: r.parent_things_id,
    things_key: r.access === 'write' ? r.things_key : '',
    collected: r.collected,
    labels: r.labels ?? [],
    attributes: { channels: r.attributes?.channels ?? [] },
    is_online: r.is_online,
    connection_status: r.connection_status,
    digital_twin_things_status: r.digital_twin_things_status,
    sd_card_status: r.sd_card_status,
    firmware: r.firmware,
    server: r.server,
    channel_enable: r.channel_enable,
    last_seen_at: ms(r.last_seen_at),
    access: r.access,
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

export function toDeviceType(r: DeviceTypeRow): DeviceType {
  return { ...r, public: r.tenant_id === null };
}

function checkDeviceId(raw: string): string {
  if (!DEVICE_ID_RE.test(raw)) throw badRequest('things.invalid-id', undefined, 'third_things_id');
  return raw;
}

function channelsFor(type: DeviceTypeRow, given: ThingChannel[] | undefined): ThingChannel[] {
  if (!given) return Array.from({ length: type.can_channels }, (_, index) => ({ index, typeId: 0, status: 1, signalStrategy: null }));
  const seen = new Set<number>();
  for (const c of given) {
    if (c.index >= type.can_channels || seen.has(c.index)) throw badRequest('things.bad-channel', undefined, 'channels');
    seen.add(c.index);
  }
  return [...given].sort((a, b) => a.index - b.index);
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

export function thingsService(deps: ThingsDeps) {
  const repo = thingsRepository(deps.raw);
  const labels = labelRepository(deps.raw);

  async function typeOf(auth: Auth, id: string): Promise<DeviceTypeRow> {
    const t = await repo.getType(auth, id);
    if (!t) throw badRequest('things.unknown-type', undefined, 'info_model_id');
    return t;
  }

  async function get(auth: Auth, id: string): Promise<Thing> {
    await requireDevice(deps.raw, auth, id, 'read');
    const row = await repo.get(auth, id);
    if (!row) throw notFound('Device not found');
    return toThing(row);
  }

  async function create(auth: Auth, body: ThingCreate): Promise<Thing> {
    const deviceId = checkDeviceId(body.third_things_id);
    const type = await typeOf(auth, body.info_model_id);
    if (body.parent_things_id) await requireDevice(deps.raw, auth, body.parent_things_id, 'write');
    if (await repo.existsDeviceId(deviceId)) throw conflict('things.duplicate-id', undefined, 'third_things_id');
    await checkDeviceLabels(labels, auth, body.labels ?? []);
    if (deps.assertCanAdd) {
      const n = await repo.countTenant(auth);
      await deps.assertCanAdd(auth, 'things_num', n.all);
      if (type.thing_type === 0) await deps.assertCanAdd(auth, 'can_things_num', n.can);
    }
    let id: string;
    try {
      id = await repo.insert(auth, {
        thirdThingsId: deviceId,
        name: body.name,
        description: body.description ?? null,
        infoModelId: type.id,
        thingType: type.thing_type,
        parentThingsId: body.parent_things_id ?? null,
        thingsKey: newThingsKey(),
        labels: body.labels ?? [],
        channels: channelsFor(type, body.channels),
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('things.duplicate-id', undefined, 'third_things_id');
      throw e;
    }
    if (body.collected) await repo.setFavourite(auth, id, true);
    deps.onCredentialsChanged?.(deviceId);
    return get(auth, id);
  }

  /** 400 things.parent-cycle when `parentId` is `childId` or one of its descendants. */
  async function checkNoCycle(auth: Auth, childId: string, parentId: string): Promise<void> {
    if (parentId === childId || (await repo.ancestorIds(auth.tenantId, parentId)).includes(childId))
      throw badRequest('things.parent-cycle', undefined, 'parent_things_id');
  }

  /** A group filter names a group of the caller's tenant: another tenant's or an unknown one is `group.not-found`. */
  async function knownGroup(auth: Auth, groupId: string | undefined): Promise<void> {
    if (groupId && !(await groupRepository(deps.raw).get(auth, groupId))) throw new ApiError(404, 'group.not-found');
  }

  return {
    async listTypes(auth: Auth): Promise<DeviceType[]> {
      return (await repo.listTypes(auth)).map(toDeviceType);
    },

    async createType(auth: Auth, body: Omit<DeviceTypeRow, 'id' | 'tenant_id'>): Promise<DeviceType> {
      try {
        const id = await repo.insertType(auth, body);
        return toDeviceType({ id, tenant_id: auth.tenantId, ...body });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('can-dtu-10012', undefined, 'name');
        throw e;
      }
    },

    async list(auth: Auth, q: ThingListQuery) {
      await knownGroup(auth, q.group_id);
      const { total, rows } = await repo.list(auth, q);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toThing) };
    },

    get,
    create,

    async gateways(auth: Auth, q: ThingListQuery) {
      const { total, rows } = await repo.list(auth, { ...q, is_gateway: '1' });
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toThing) };
    },

    async children(auth: Auth, id: string, q: ThingListQuery) {
      await requireDevice(deps.raw, auth, id, 'read');
      const { total, rows } = await repo.list(auth, { ...q, parent_things_id: id });
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toThing) };
    },

    /** Binds devices to the gateway: write access to it and to each of them, and no cycle. */
    async addChildren(auth: Auth, id: string, ids: string[]) {
      await requireDevice(deps.raw, auth, id, 'write');
      const unique = [...new Set(ids)];
      await requireDevicesWritable(deps.raw, auth, unique);
      for (const c of unique) await checkNoCycle(auth, c, id);
      await repo.setParent(auth.tenantId, unique, id);
      for (const c of unique) {
        const row = await repo.get(auth, c);
        if (row) deps.onParentChanged?.(row.third_things_id);
      }
      const { total, rows } = await repo.list(auth, {
        current_page: 1,
        page_size: 1000,
        order_param: 'created_at',
        order_type: 1,
        parent_things_id: id,
      });
      return { total, current_page: 1, page_size: 1000, list: rows.map(toThing) };
    },

    async removeChild(auth: Auth, id: string, childId: string): Promise<void> {
      await requireDevice(deps.raw, auth, id, 'write');
      await requireDevice(deps.raw, auth, childId, 'write');
      const row = await repo.get(auth, childId);
      if (!row || row.parent_things_id !== id) throw notFound('Device not found');
      await repo.setParent(auth.tenantId, [childId], null, id);
      deps.onParentChanged?.(row.third_things_id);
    },

    /** Parents nearest first, as far as the caller may see them (a sub-user's chain stops at a device it has no grant on). */
    async parents(auth: Auth, id: string): Promise<Thing[]> {
      await requireDevice(deps.raw, auth, id, 'read');
      const out: Thing[] = [];
      for (const p of await repo.ancestorIds(auth.tenantId, id)) {
        const row = await repo.get(auth, p);
        if (!row) break;
        out.push(toThing(row));
      }
      return out;
    },

    async update(auth: Auth, id: string, body: ThingUpdate): Promise<Thing> {
      await requireDevice(deps.raw, auth, id, 'write');
      const current = await repo.get(auth, id);
      if (!current) throw notFound('Device not found');
      const set: Record<string, unknown> = {};
      if (body.name !== undefined) set.name = body.name;
      if (body.description !== undefined) set.description = body.description;
      if (body.labels !== undefined) {
        await checkDeviceLabels(labels, auth, body.labels);
        set.labels = body.labels;
      }
      if (body.parent_things_id !== undefined) {
        if (body.parent_things_id) {
          await requireDevice(deps.raw, auth, body.parent_things_id, 'write');
          await checkNoCycle(auth, id, body.parent_things_id);
        }
        set.parent_things_id = body.parent_things_id;
      }
      let type: DeviceTypeRow | null = null;
      if (body.info_model_id !== undefined && body.info_model_id !== current.info_model_id) {
        type = await typeOf(auth, body.info_model_id);
        set.info_model_id = type.id;
        set.thing_type = type.thing_type;
      }
      if (body.channels !== undefined || type) {
        const t = type ?? (await typeOf(auth, current.info_model_id));
        set.attributes = {
          ...current.attributes,
          channels: channelsFor(t, body.channels ?? (type ? undefined : current.attributes.channels)),
        };
      }
      await repo.update(auth, id, set);
      if (set.parent_things_id !== undefined) deps.onParentChanged?.(current.third_things_id);
      if (body.collected !== undefined) await repo.setFavourite(auth, id, body.collected);
      return get(auth, id);
    },

    /**
     * The favourite star (spec §3 collected) is the caller's own: reading the device is enough, and
     * nobody else's list changes (a read-only session's stars are that session's alone).
     */
    async setCollected(auth: Auth, id: string, collected: boolean): Promise<Thing> {
      await requireDevice(deps.raw, auth, id, 'read');
      await repo.setFavourite(auth, id, collected);
      return get(auth, id);
    },

    async regenerateKey(auth: Auth, id: string): Promise<Thing> {
      await requireDevice(deps.raw, auth, id, 'write');
      const row = await repo.get(auth, id);
      if (!row) throw notFound('Device not found');
      await repo.update(auth, id, { things_key: newThingsKey() });
      deps.onCredentialsChanged?.(row.third_things_id);
      return get(auth, id);
    },

    async remove(auth: Auth, id: string): Promise<void> {
      await requireDevice(deps.raw, auth, id, 'write');
      const gone = await repo.remove(auth, id);
      if (!gone) throw notFound('Device not found');
      deps.onCredentialsChanged?.(gone.third_things_id);
      deps.onRemoved?.(auth.tenantId, id);
    },

    async status(auth: Auth, id: string): Promise<ThingStatus> {
      const t = await get(auth, id);
      const row = await repo.get(auth, id);
      const usage = await repo.usage(auth, id);
      return {
        id: t.id,
        third_things_id: t.third_things_id,
        is_online: t.is_online,
        connection_status: t.connection_status,
        sd_card_status: t.sd_card_status,
        firmware: t.firmware,
        server: t.server,
        channel_enable: t.channel_enable,
        channels: t.attributes.channels.map((c) => ({
          index: c.index,
          name: `CAN${c.index}`,
          enabled: (t.channel_enable & (1 << c.index)) !== 0,
        })),
        last_seen_at: t.last_seen_at,
        frames_stored: usage.frames,
        bytes_stored: usage.bytes,
        malformed_count: Number(row?.malformed_count ?? 0),
        last_frame_at: usage.last === null ? null : Math.floor(usage.last / 1000),
      };
    },

    async events(auth: Auth, id: string, page: number, size: number, kind?: string) {
      await requireDevice(deps.raw, auth, id, 'read');
      if (page * size > 10_000) throw badRequest('data.over-10000');
      const { total, rows } = await repo.events(auth, id, page, size, kind);
      return {
        total,
        current_page: page,
        page_size: size,
        list: rows.map((r) => ({ ...r, id: Number(r.id), at: new Date(r.at).getTime(), kind: r.kind as DeviceEvent['kind'] })),
      };
    },

    /** CSV columns: third_things_id,name,type,description (type = device type name or id). */
    async importCsv(auth: Auth, text: string) {
      const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
      let created = 0;
      const errors: { line: number; code: string; message: string }[] = [];
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].trim();
        if (!line) continue;
        const cells = parseCsvLine(line);
        if (i === 0 && /third_things_id|device/i.test(cells[0] ?? '')) continue; // header
        const [deviceId = '', name = '', type = '', description = ''] = cells.map((c) => c.trim());
        try {
          if (!name) throw badRequest('http.400', 'name is required', 'name');
          // A name from a file is refused as one in a request is (lib/input-guard.ts).
          if (hasControlCharacter(name)) throw badRequest('http.400', 'name: a name must not contain control characters', 'name');
          const t = await typeOf(auth, type);
          await create(auth, { third_things_id: deviceId, name, info_model_id: t.id, description: description || null });
          created++;
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          const b = Array.isArray(e.body) ? e.body[0] : e.body;
          errors.push({ line: i + 1, code: b.code, message: b.message });
        }
      }
      return { created, errors };
    },

    async exportCsv(auth: Auth, q: ThingListQuery): Promise<string> {
      await knownGroup(auth, q.group_id);
      const { rows } = await repo.list(auth, { ...q, current_page: 1, page_size: 100_000 });
      let out = 'third_things_id,name,type,description,is_online,collected,created_at\r\n';
      for (const r of rows) {
        out += csvLine([
          r.third_things_id,
          r.name,
          r.info_model_name,
          r.description ?? '',
          r.is_online ? 1 : 0,
          r.collected ? 1 : 0,
          new Date(r.created_at),
        ]);
      }
      return out;
    },
  };
}

export type ThingsService = ReturnType<typeof thingsService>;

export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
