import { type Vehicle, type VehicleCreate, VIN_RE } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { ProjectNarrowing } from '../project/project.narrowing.ts';
import { requireDevicesWritable } from './things.access.ts';
import { type VehicleRow, vehiclesRepository } from './vehicles.repository.ts';

/**
 * Vehicles (CarManager) whose channels name device CAN channels. A vehicle is made, changed or
 * deleted only by a caller who may write to every device it names, before and after. A vehicle that
 * loses a device, or is deleted, ends the sessions of the members of the projects that hold it.
 */
export function vehiclesService(raw: RawSql, projects: Pick<ProjectNarrowing, 'narrowing'>) {
  const repo = vehiclesRepository(raw);

  async function toVehicle(auth: Auth, r: VehicleRow): Promise<Vehicle> {
    const devices = await repo.devices(
      auth,
      r.channels.map((c) => c.things_id),
    );
    return {
      id: r.id,
      tenant_id: r.tenant_id,
      name: r.name,
      vin: r.vin,
      description: r.description,
      channels: r.channels.map((c) => ({ ...c, third_things_id: devices.get(c.things_id)?.third_things_id ?? null })),
      created_at: new Date(r.created_at).getTime(),
      updated_at: new Date(r.updated_at).getTime(),
    };
  }

  async function validate(auth: Auth, v: VehicleCreate) {
    const vin = v.vin ? v.vin : null;
    if (vin !== null && !VIN_RE.test(vin)) throw badRequest('things.invalid-vin', undefined, 'vin');
    const devices = await repo.devices(
      auth,
      v.channels.map((c) => c.things_id),
    );
    const names = new Set<string>();
    for (const c of v.channels) {
      const d = devices.get(c.things_id);
      if (!d) throw badRequest('http.400', 'Unknown device in channels', 'channels');
      if (c.channel >= d.can_channels) throw badRequest('things.bad-channel', undefined, 'channels');
      if (names.has(c.name)) throw badRequest('http.400', `Channel name ${c.name} used twice`, 'channels');
      names.add(c.name);
    }
    return { name: v.name, vin, description: v.description ?? null, channels: v.channels };
  }

  const devicesOf = (channels: { things_id: string }[]) => channels.map((c) => c.things_id);

  const dupVin = (e: unknown) => {
    if ((e as { code?: string })?.code === '23505') return conflict('things.duplicate-vin', undefined, 'vin');
    return e;
  };

  return {
    async list(auth: Auth, page: number, size: number, keyword?: string) {
      if (page * size > 10_000) throw badRequest('data.over-10000');
      const { total, rows } = await repo.list(auth, page, size, keyword);
      return { total, current_page: page, page_size: size, list: await Promise.all(rows.map((r) => toVehicle(auth, r))) };
    },
    async get(auth: Auth, id: string): Promise<Vehicle> {
      const r = await repo.get(auth, id);
      if (!r) throw notFound('Vehicle not found');
      return toVehicle(auth, r);
    },
    async create(auth: Auth, body: VehicleCreate): Promise<Vehicle> {
      const v = await validate(auth, body);
      await requireDevicesWritable(raw, auth, devicesOf(v.channels));
      const id = await repo.insert(auth, v).catch((e) => {
        throw dupVin(e);
      });
      return this.get(auth, id);
    },
    async update(auth: Auth, id: string, body: Partial<VehicleCreate>): Promise<Vehicle> {
      const cur = await repo.get(auth, id);
      if (!cur) throw notFound('Vehicle not found');
      await requireDevicesWritable(raw, auth, devicesOf(cur.channels));
      const v = await validate(auth, {
        name: body.name ?? cur.name,
        vin: body.vin !== undefined ? body.vin : cur.vin,
        description: body.description !== undefined ? body.description : cur.description,
        channels: body.channels ?? cur.channels,
      });
      await requireDevicesWritable(raw, auth, devicesOf(v.channels));
      const kept = new Set(devicesOf(v.channels));
      const narrowed = devicesOf(cur.channels).some((d) => !kept.has(d)) ? await projects.narrowing(auth, 'vehicles', [id]) : null;
      await repo.update(auth, id, v).catch((e) => {
        throw dupVin(e);
      });
      await narrowed?.();
      return this.get(auth, id);
    },
    async remove(auth: Auth, id: string): Promise<void> {
      const cur = await repo.get(auth, id);
      if (!cur) throw notFound('Vehicle not found');
      await requireDevicesWritable(raw, auth, devicesOf(cur.channels));
      const narrowed = await projects.narrowing(auth, 'vehicles', [id]);
      if (!(await repo.remove(auth, id))) throw notFound('Vehicle not found');
      await narrowed();
    },
  };
}
