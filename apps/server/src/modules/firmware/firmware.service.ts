import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Firmware, Operations, type Upgrade, type UpgradeState, versionNum } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { INTERRUPTED, type RecoveryPass } from '../../lib/job-leases.ts';
import type { CommandRow } from '../command/command.repository.ts';
import type { CommandService, DeviceResponse } from '../command/command.service.ts';
import { requireDevice } from '../things/things.access.ts';

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** A device's firmware upgrade changed state or progress (pushed live to the console). */
    'firmware.state': { tenantId: string; thingsId: string; upgrade: Upgrade };
  }
}

interface FirmwareRow {
  id: string;
  tenant_id: string;
  version: string;
  version_num: number;
  model_id: string;
  model_name: string;
  description: string | null;
  type: 'self' | 'outer';
  sub_dev_id: string | null;
  file_name: string;
  size: number;
  sha256: string;
  to_public: boolean;
  created_at: Date;
}

interface UpgradeRow {
  id: string;
  tenant_id: string;
  things_id: string;
  firmware_id: string;
  version: string;
  state: UpgradeState;
  progress: number;
  code: string | null;
  message: string | null;
  token: string | null;
  correlation_id: string | null;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
}

const ms = (d: Date | null) => (d ? new Date(d).getTime() : null);
const FW = `f.id, f.tenant_id, f.version, f.version_num, f.model_id, d.name as model_name, f.description, f.type, f.sub_dev_id, f.file_name,
  f.size::float8 as size, f.sha256, f.to_public, f.created_at`;
const UP = `id, tenant_id, things_id, firmware_id, version, state, progress, code, message, token, correlation_id, scheduled_at, started_at,
  finished_at, created_at`;
/** A device has this long (renewed by each progress report) to download, verify and flash. */
const UPGRADE_TIMEOUT_MS = 120_000;

const toFirmware = (r: FirmwareRow): Firmware => ({
  firmware_id: r.id,
  tenant_id: r.tenant_id,
  version: r.version,
  version_num: r.version_num,
  model_id: r.model_id,
  model_name: r.model_name,
  description: r.description,
  type: r.type,
  sub_dev_id: r.sub_dev_id,
  file_name: r.file_name,
  size: Number(r.size),
  sha256: r.sha256,
  to_public: r.to_public,
  created_at: ms(r.created_at) ?? 0,
});

export const toUpgrade = (r: UpgradeRow): Upgrade => ({
  id: r.id,
  things_id: r.things_id,
  firmware_id: r.firmware_id,
  version: r.version,
  state: r.state,
  progress: r.progress,
  code: r.code,
  message: r.message,
  scheduled_at: ms(r.scheduled_at),
  started_at: ms(r.started_at),
  finished_at: ms(r.finished_at),
  created_at: ms(r.created_at) ?? 0,
});

export interface FirmwareDeps {
  raw: RawSql;
  commands: CommandService;
  events: EventBus;
  dataDir: string;
  publicUrl: () => string;
  /** This server copy's id (`ctx.jobs.owner`): the upgrades it starts name it. */
  owner?: string;
}

/**
 * Firmware files per device type (own and public ones), and upgrades: now or at a scheduled time,
 * refused for an offline device or one already upgrading; the device downloads the image over
 * HTTP with a one-time token, verifies size and SHA-256, flashes and reports each state.
 */
export function firmwareService(deps: FirmwareDeps) {
  const { raw, commands, events } = deps;
  const owner = deps.owner ?? null;
  const dir = path.join(deps.dataDir, 'firmware');
  const fileOf = (id: string) => path.join(dir, `${id}.bin`);

  async function visible(auth: Auth, id: string): Promise<FirmwareRow> {
    const { rows } = await raw.query<FirmwareRow>(
      `select ${FW} from firmwares f join device_types d on d.id = f.model_id where f.id = $1 and (f.tenant_id = $2 or f.to_public)`,
      [id, auth.tenantId],
    );
    if (!rows[0]) throw notFound('Firmware not found');
    return rows[0];
  }

  async function emit(r: UpgradeRow | null) {
    if (r) events.emit('firmware.state', { tenantId: r.tenant_id, thingsId: r.things_id, upgrade: toUpgrade(r) });
  }

  async function update(
    id: string,
    set: Partial<Pick<UpgradeRow, 'state' | 'progress' | 'code' | 'message' | 'correlation_id'>>,
    onlyOpen = true,
  ) {
    const { rows } = await raw.query<UpgradeRow>(
      `update firmware_upgrades set state = coalesce($2, state), progress = coalesce($3, progress), code = coalesce($4, code),
              message = coalesce($5, message), correlation_id = coalesce($6, correlation_id),
              started_at = case when $2 = 'busy' then coalesce(started_at, now()) else started_at end,
              finished_at = case when $2 in ('invalid','flash success','flash failed','cancelled') then now() else finished_at end,
              token = case when $2 in ('invalid','flash success','flash failed','cancelled') then null else token end
        where id = $1 ${onlyOpen ? `and state in ('scheduled','idle','busy')` : ''} returning ${UP}`,
      [id, set.state ?? null, set.progress ?? null, set.code ?? null, set.message ?? null, set.correlation_id ?? null],
    );
    await emit(rows[0] ?? null);
    return rows[0] ?? null;
  }

  /** Starts one upgrade on an online device: busy, token URL, command. */
  async function start(u: UpgradeRow, fw: FirmwareRow, createdBy: string | null): Promise<UpgradeRow> {
    const t = await commands.target(u.tenant_id, u.things_id);
    if (!t.is_online)
      return (await update(u.id, { state: 'flash failed', code: 'things.offline', message: 'device offline cannot upgrade' })) ?? u;
    let busy: UpgradeRow | null;
    try {
      busy = await update(u.id, { state: 'busy', progress: 0 });
    } catch (e) {
      if ((e as { code?: string }).code === '23505')
        return (await update(u.id, { state: 'flash failed', code: 'things.busy', message: 'an upgrade is already running' })) ?? u;
      throw e;
    }
    if (!busy?.token) return busy ?? u;
    const url = `${deps.publicUrl().replace(/\/$/, '')}/v1/out-firmware-mgmt/download/${busy.token}`;
    const cmd = await commands.issueRaw(
      t,
      {
        operation_name: Operations.firmwareUpgrade,
        operation_params: { version: fw.version, type: fw.type, url, size: Number(fw.size), sha256: fw.sha256, file_name: fw.file_name },
        timeout_ms: UPGRADE_TIMEOUT_MS,
      },
      createdBy,
    );
    return (await update(u.id, { correlation_id: cmd.correlation_id })) ?? busy;
  }

  async function onResponse(cmd: CommandRow, resp: DeviceResponse) {
    const { rows } = await raw.query<UpgradeRow>(`select ${UP} from firmware_upgrades where things_id = $1 and correlation_id = $2`, [
      cmd.things_id,
      cmd.correlation_id,
    ]);
    const u = rows[0];
    if (!u) return;
    const p = (resp.payload ?? {}) as { state?: string; progress?: number };
    if (resp.partial && resp.code === 0) {
      await update(u.id, { progress: typeof p.progress === 'number' ? Math.max(0, Math.min(99, Math.round(p.progress))) : undefined });
      return;
    }
    if (resp.code === 0) {
      await update(u.id, { state: 'flash success', progress: 100 });
      await raw.query('update things set firmware = $2 where id = $1', [u.things_id, u.version]);
      return;
    }
    await update(u.id, {
      state: p.state === 'invalid' ? 'invalid' : 'flash failed',
      code: p.state === 'invalid' ? 'firmware.invalid' : 'firmware.flash-failed',
      message: resp.message ?? 'the device could not flash the firmware',
    });
  }
  commands.onResponse(Operations.firmwareUpgrade, onResponse);

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; model_id?: string; type?: string }) {
      const where = `(f.tenant_id = $1 or f.to_public) and ($2::uuid is null or f.model_id = $2) and ($3::text is null or f.type = $3)`;
      const params = [auth.tenantId, q.model_id ?? null, q.type ?? null];
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from firmwares f where ${where}`, params);
      const { rows } = await raw.query<FirmwareRow>(
        `select ${FW} from firmwares f join device_types d on d.id = f.model_id where ${where}
          order by f.version_num desc, f.created_at desc limit $4 offset $5`,
        [...params, q.page_size, (q.current_page - 1) * q.page_size],
      );
      return { total: total.rows[0].n, current_page: q.current_page, page_size: q.page_size, list: rows.map(toFirmware) };
    },

    async upload(
      auth: Auth,
      f: { version: string; model_id: string; description?: string; type: 'self' | 'outer'; sub_dev_id?: string },
      file: { name: string; bytes: Buffer },
    ) {
      if (file.bytes.length === 0) throw badRequest('firmware.no-file', 'Choose a firmware file', 'file');
      const type = await raw.query('select 1 from device_types where id = $1 and (tenant_id is null or tenant_id = $2)', [
        f.model_id,
        auth.tenantId,
      ]);
      if (!type.rows.length) throw badRequest('things.unknown-type', 'Unknown device type', 'model_id');
      const sha256 = createHash('sha256').update(file.bytes).digest('hex');
      let id: string;
      try {
        const { rows } = await raw.query<{ id: string }>(
          `insert into firmwares (tenant_id, version, version_num, model_id, description, type, sub_dev_id, file_name, size, sha256, created_by)
           values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) returning id`,
          [
            auth.tenantId,
            f.version,
            versionNum(f.version),
            f.model_id,
            f.description ?? null,
            f.type,
            f.sub_dev_id ?? null,
            file.name.slice(0, 255),
            file.bytes.length,
            sha256,
            auth.userId,
          ],
        );
        id = rows[0].id;
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw conflict('firmware.exists', 'This firmware version already exists', 'version');
        throw e;
      }
      await fs.promises.mkdir(dir, { recursive: true });
      await fs.promises.writeFile(fileOf(id), file.bytes);
      return toFirmware(await visible(auth, id));
    },

    async remove(auth: Auth, ids: string[]) {
      for (const id of ids) {
        const busy = await raw.query(`select 1 from firmware_upgrades where firmware_id = $1 and state = 'busy'`, [id]);
        if (busy.rows.length) throw conflict('firmware.in-use', 'The firmware is being installed on a device');
        const { rows } = await raw.query<{ id: string }>('delete from firmwares where id = $1 and tenant_id = $2 returning id', [
          id,
          auth.tenantId,
        ]);
        if (!rows.length) throw notFound('Firmware not found');
        await fs.promises.rm(fileOf(id), { force: true });
      }
    },

    async setPublic(auth: Auth, id: string, toPublic: boolean) {
      const { rows } = await raw.query<{ id: string }>(
        'update firmwares set to_public = $3 where id = $1 and tenant_id = $2 returning id',
        [id, auth.tenantId, toPublic],
      );
      if (!rows.length) throw notFound('Firmware not found');
      return toFirmware(await visible(auth, id));
    },

    /** GET /firmware/{devtype}/{version}/desc: devtype is a device type id or name. */
    async describe(auth: Auth, devtype: string, version: string) {
      const { rows } = await raw.query<FirmwareRow>(
        `select ${FW} from firmwares f join device_types d on d.id = f.model_id
          where (d.id::text = $1 or d.name = $1) and f.version = $2 and (f.tenant_id = $3 or f.to_public)
          order by (f.tenant_id = $3) desc limit 1`,
        [devtype, version, auth.tenantId],
      );
      if (!rows[0]) throw notFound('Firmware not found');
      return { version: rows[0].version, model_id: rows[0].model_id, description: rows[0].description ?? '' };
    },

    /** Upgrade devices of one type to a version, now or at `at`. */
    async notify(auth: Auth, modelId: string, version: string, body: { things_ids: string[]; at?: number; type: 'self' | 'outer' }) {
      const { rows: fws } = await raw.query<FirmwareRow>(
        `select ${FW} from firmwares f join device_types d on d.id = f.model_id
          where f.model_id = $1 and f.version = $2 and f.type = $3 and (f.tenant_id = $4 or f.to_public)
          order by (f.tenant_id = $4) desc limit 1`,
        [modelId, version, body.type, auth.tenantId],
      );
      const fw = fws[0];
      if (!fw) throw notFound('Firmware not found');
      const scheduled = body.at !== undefined && body.at > Date.now() + 1000;
      const results = [];
      for (const thingsId of body.things_ids) {
        await requireDevice(raw, auth, thingsId, 'write');
        const t = await commands.target(auth.tenantId, thingsId);
        let code: string | null = null;
        let message: string | null = null;
        if (t.info_model_id !== modelId) [code, message] = ['firmware.wrong-model', 'the device is of another type'];
        else if (!scheduled && !t.is_online) [code, message] = ['things.offline', 'device offline cannot upgrade'];
        else {
          const busy = await raw.query(`select 1 from firmware_upgrades where things_id = $1 and state in ('busy','scheduled')`, [
            thingsId,
          ]);
          if (busy.rows.length) [code, message] = ['things.busy', 'Repeated operation: wait until the running upgrade finishes'];
        }
        if (code) {
          results.push({ things_id: thingsId, upgrade: null, code, message });
          continue;
        }
        const { rows } = await raw.query<UpgradeRow>(
          `insert into firmware_upgrades (tenant_id, things_id, firmware_id, version, state, token, scheduled_at, created_by, owner)
           values ($1,$2,$3,$4,$5,$6,$7,$8,$9) returning ${UP}`,
          [
            auth.tenantId,
            thingsId,
            fw.id,
            fw.version,
            scheduled ? 'scheduled' : 'idle',
            randomBytes(24).toString('hex'),
            scheduled ? new Date(body.at as number) : null,
            auth.userId,
            owner,
          ],
        );
        const u = scheduled ? rows[0] : await start(rows[0], fw, auth.userId);
        await emit(u);
        results.push({ things_id: thingsId, upgrade: toUpgrade(u), code: u.code, message: u.message });
      }
      // One device: its refusal is the answer (the console shows it as an error).
      if (results.length === 1 && results[0].code && !results[0].upgrade) {
        const status = results[0].code === 'firmware.wrong-model' ? 400 : 409;
        throw new ApiError(status, results[0].code, results[0].message ?? undefined);
      }
      return { results };
    },

    async upgrades(auth: Auth, thingsId: string) {
      await requireDevice(raw, auth, thingsId, 'read');
      const { rows } = await raw.query<UpgradeRow>(
        `select ${UP} from firmware_upgrades where tenant_id = $1 and things_id = $2 order by created_at desc limit 100`,
        [auth.tenantId, thingsId],
      );
      return rows.map(toUpgrade);
    },

    async cancel(auth: Auth, thingsId: string, id: string) {
      await requireDevice(raw, auth, thingsId, 'write');
      const { rows } = await raw.query<UpgradeRow>(
        `update firmware_upgrades set state = 'cancelled', finished_at = now(), token = null
          where id = $1 and tenant_id = $2 and things_id = $3 and state in ('scheduled','idle') returning ${UP}`,
        [id, auth.tenantId, thingsId],
      );
      if (!rows[0]) throw conflict('command.not-cancellable', 'Only a scheduled upgrade can be cancelled');
      await emit(rows[0]);
      return toUpgrade(rows[0]);
    },

    /** The image for a device holding a valid token (while its upgrade is running). */
    async download(token: string) {
      const { rows } = await raw.query<{ firmware_id: string; size: number; file_name: string }>(
        `select u.firmware_id, f.size::float8 as size, f.file_name from firmware_upgrades u join firmwares f on f.id = u.firmware_id
          where u.token = $1 and u.state = 'busy'`,
        [token],
      );
      if (!rows[0]) throw notFound('Unknown or finished upgrade');
      return { size: Number(rows[0].size), name: rows[0].file_name, stream: fs.createReadStream(fileOf(rows[0].firmware_id)) };
    },

    /** Each second: start scheduled upgrades that are due; end those whose command timed out. */
    async sweep() {
      const { rows } = await raw.query<UpgradeRow>(
        `update firmware_upgrades set state = 'idle', owner = $1 where id in
           (select id from firmware_upgrades where state = 'scheduled' and scheduled_at <= now() limit 50)
             and state = 'scheduled' returning ${UP}`,
        [owner],
      );
      for (const u of rows) {
        const fw = await raw.query<FirmwareRow>(`select ${FW} from firmwares f join device_types d on d.id = f.model_id where f.id = $1`, [
          u.firmware_id,
        ]);
        if (fw.rows[0]) await start(u, fw.rows[0], null);
      }
      const stale = await raw.query<UpgradeRow>(
        `select ${UP} from firmware_upgrades where state = 'busy' and correlation_id in
           (select correlation_id from device_commands where state in ('timeout','expired','cancelled') and things_id = firmware_upgrades.things_id)`,
      );
      for (const u of stale.rows)
        await update(u.id, { state: 'flash failed', code: 'command.no-response', message: 'the device stopped reporting' });
    },

    /**
     * Upgrades a stopped server copy was starting. Once the command is out, the upgrade is the
     * device's: it keeps waiting for the device's report (or its time-out), even when the copy stopped
     * before noting the command. One the server was still preparing (not sent) ends as failed with
     * the reason. A device's final report that was stored but not applied is applied now.
     */
    async recover(pass: RecoveryPass): Promise<number> {
      const linked = await raw.query<{ id: string }>(
        `update firmware_upgrades u set correlation_id = c.correlation_id, owner = $1
           from device_commands c
          where u.state = 'busy' and u.correlation_id is null and ${pass.dead('u.owner')}
            and c.things_id = u.things_id and c.operation_name = $2 and c.operation_params->>'url' like '%/' || u.token
          returning u.id`,
        [pass.owner, Operations.firmwareUpgrade],
      );
      const unsent = await raw.query<{ id: string }>(
        `select id from firmware_upgrades where state in ('idle', 'busy') and correlation_id is null and ${pass.dead()}`,
      );
      for (const u of unsent.rows) await update(u.id, { state: 'flash failed', code: INTERRUPTED.code, message: INTERRUPTED.message });
      const reported = await raw.query<CommandRow>(
        `select c.* from firmware_upgrades u join device_commands c on c.things_id = u.things_id and c.correlation_id = u.correlation_id
          where u.state = 'busy' and c.state in ('answered', 'failed')`,
      );
      for (const c of reported.rows)
        await onResponse(c, {
          correlation_id: c.correlation_id,
          code: c.state === 'answered' ? 0 : (c.code ?? 1),
          message: c.message ?? undefined,
          payload: c.result ?? undefined,
        });
      return linked.rows.length + unsent.rows.length + reported.rows.length;
    },
  };
}

export type FirmwareService = ReturnType<typeof firmwareService>;
