import { createHash, randomBytes } from 'node:crypto';
import { type ErrorCode, type Firmware, MAX_UPGRADE_DEVICES, Operations, type Upgrade, versionNum } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { checkLinkProof } from '../../lib/device-proof.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { INTERRUPTED, type RecoveryPass } from '../../lib/job-leases.ts';
import type { CommandRow } from '../command/command.repository.ts';
import type { CommandService, DeviceResponse } from '../command/command.service.ts';
import { groupRepository } from '../group/group.repository.ts';
import { deviceAccess, requireDevice, restrictedUser } from '../things/things.access.ts';
import { type FirmwareRow, firmwareRepository, type UpgradeChange, type UpgradeRow } from './firmware.repository.ts';

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** A device's firmware upgrade changed state or progress (pushed live to the console). */
    'firmware.state': { tenantId: string; thingsId: string; upgrade: Upgrade };
  }
}

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
  /** The file store: images under `firmware/<id>.bin`. */
  files: FileStore;
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
  const repo = firmwareRepository(raw);
  const groups = groupRepository(raw);
  const owner = deps.owner ?? null;
  const files = deps.files;
  const fileOf = (id: string) => `firmware/${id}.bin`;

  /**
   * The devices an upgrade names: its list, or the members of its group (of the caller's tenant) the
   * caller may see; of those, the ones it may only read are answered `http.403` (not upgraded).
   */
  async function upgradeTargets(
    auth: Auth,
    body: { things_ids?: string[]; group_id?: string },
  ): Promise<{ thingsIds: string[]; readOnly: Set<string> }> {
    if (body.things_ids) return { thingsIds: body.things_ids, readOnly: new Set() };
    const groupId = body.group_id as string;
    if (!(await groups.get(auth, groupId))) throw new ApiError(404, 'group.not-found');
    const { rows, total } = await groups.members(auth, groupId, restrictedUser(auth), 0, MAX_UPGRADE_DEVICES);
    if (!total) throw badRequest('group.empty', 'The group has no devices you may use', 'group_id');
    if (total > MAX_UPGRADE_DEVICES)
      throw badRequest(
        'firmware.too-many-devices',
        `The group has ${total} devices; an upgrade names at most ${MAX_UPGRADE_DEVICES}`,
        'group_id',
      );
    const readOnly = new Set<string>();
    for (const m of rows) if ((await deviceAccess(raw, auth, m.things_id)) !== 'write') readOnly.add(m.things_id);
    return { thingsIds: rows.map((m) => m.things_id), readOnly };
  }

  async function visible(auth: Auth, id: string): Promise<FirmwareRow> {
    const row = await repo.visible(auth.tenantId, id);
    if (!row) throw notFound('Firmware not found');
    return row;
  }

  async function emit(r: UpgradeRow | null) {
    if (r) events.emit('firmware.state', { tenantId: r.tenant_id, thingsId: r.things_id, upgrade: toUpgrade(r) });
  }

  async function update(id: string, set: UpgradeChange, onlyOpen = true) {
    const row = await repo.updateUpgrade(id, set, onlyOpen);
    await emit(row);
    return row;
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
    const u = await repo.upgradeOfCommand(cmd.things_id, cmd.correlation_id);
    if (!u) return;
    const p = (resp.payload ?? {}) as { state?: string; progress?: number };
    if (resp.partial && resp.code === 0) {
      await update(u.id, { progress: typeof p.progress === 'number' ? Math.max(0, Math.min(99, Math.round(p.progress))) : undefined });
      return;
    }
    if (resp.code === 0) {
      await update(u.id, { state: 'flash success', progress: 100 });
      await repo.setDeviceFirmware(u.things_id, u.version);
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
      const { total, rows } = await repo.list(auth.tenantId, q);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toFirmware) };
    },

    async upload(
      auth: Auth,
      f: { version: string; model_id: string; description?: string; type: 'self' | 'outer'; sub_dev_id?: string },
      file: { name: string; bytes: Buffer },
    ) {
      if (file.bytes.length === 0) throw badRequest('firmware.no-file', undefined, 'file');
      if (!(await repo.deviceTypeUsable(auth.tenantId, f.model_id))) throw badRequest('things.unknown-type', undefined, 'model_id');
      const sha256 = createHash('sha256').update(file.bytes).digest('hex');
      let id: string;
      try {
        id = await repo.insert({
          tenantId: auth.tenantId,
          version: f.version,
          versionNum: versionNum(f.version),
          modelId: f.model_id,
          description: f.description ?? null,
          type: f.type,
          subDevId: f.sub_dev_id ?? null,
          fileName: file.name.slice(0, 255),
          size: file.bytes.length,
          sha256,
          createdBy: auth.userId,
        });
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw conflict('firmware.exists', undefined, 'version');
        throw e;
      }
      try {
        await files.put(fileOf(id), file.bytes);
      } catch (e) {
        // No firmware row without its image.
        await repo.remove(auth.tenantId, id);
        throw e;
      }
      return toFirmware(await visible(auth, id));
    },

    async remove(auth: Auth, ids: string[]) {
      for (const id of ids) {
        if (await repo.installing(id)) throw conflict('firmware.in-use');
        if (!(await repo.remove(auth.tenantId, id))) throw notFound('Firmware not found');
        await files.remove(fileOf(id));
      }
    },

    async setPublic(auth: Auth, id: string, toPublic: boolean) {
      if (!(await repo.setPublic(auth.tenantId, id, toPublic))) throw notFound('Firmware not found');
      return toFirmware(await visible(auth, id));
    },

    /** GET /firmware/{devtype}/{version}/desc: devtype is a device type id or name. */
    async describe(auth: Auth, devtype: string, version: string) {
      const fw = await repo.byTypeAndVersion(auth.tenantId, devtype, version);
      if (!fw) throw notFound('Firmware not found');
      return { version: fw.version, model_id: fw.model_id, description: fw.description ?? '' };
    },

    /** Upgrade devices of one type to a version, now or at `at`. */
    async notify(
      auth: Auth,
      modelId: string,
      version: string,
      body: { things_ids?: string[]; group_id?: string; at?: number; type: 'self' | 'outer' },
    ) {
      const fw = await repo.forUpgrade(auth.tenantId, modelId, version, body.type);
      if (!fw) throw notFound('Firmware not found');
      const scheduled = body.at !== undefined && body.at > Date.now() + 1000;
      const results: { things_id: string; upgrade: Upgrade | null; code: string | null; message: string | null }[] = [];
      const { thingsIds, readOnly } = await upgradeTargets(auth, body);
      for (const thingsId of thingsIds) {
        if (readOnly.has(thingsId)) {
          results.push({ things_id: thingsId, upgrade: null, code: 'http.403', message: 'Read-only access to this device' });
          continue;
        }
        await requireDevice(raw, auth, thingsId, 'write');
        const t = await commands.target(auth.tenantId, thingsId);
        let code: string | null = null;
        let message: string | null = null;
        if (t.info_model_id !== modelId) [code, message] = ['firmware.wrong-model', 'the device is of another type'];
        else if (!scheduled && !t.is_online) [code, message] = ['things.offline', 'device offline cannot upgrade'];
        else {
          if (await repo.upgradePending(thingsId))
            [code, message] = ['things.busy', 'Repeated operation: wait until the running upgrade finishes'];
        }
        if (code) {
          results.push({ things_id: thingsId, upgrade: null, code, message });
          continue;
        }
        const row = await repo.insertUpgrade({
          tenantId: auth.tenantId,
          thingsId,
          firmwareId: fw.id,
          version: fw.version,
          state: scheduled ? 'scheduled' : 'idle',
          token: randomBytes(24).toString('hex'),
          scheduledAt: scheduled ? new Date(body.at as number) : null,
          createdBy: auth.userId,
          owner,
        });
        const u = scheduled ? row : await start(row, fw, auth.userId);
        await emit(u);
        results.push({ things_id: thingsId, upgrade: toUpgrade(u), code: u.code, message: u.message });
      }
      // One device named: its refusal is the answer (the console shows it as an error).
      if (body.things_ids && results.length === 1 && results[0].code && !results[0].upgrade) {
        const status = results[0].code === 'firmware.wrong-model' ? 400 : 409;
        // The refusals above (`firmware.wrong-model`, `things.offline`, `things.busy`) are codes of the registry.
        throw new ApiError(status, results[0].code as ErrorCode, results[0].message ?? undefined);
      }
      return { results };
    },

    async upgrades(auth: Auth, thingsId: string) {
      await requireDevice(raw, auth, thingsId, 'read');
      return (await repo.upgradesOf(auth.tenantId, thingsId)).map(toUpgrade);
    },

    async cancel(auth: Auth, thingsId: string, id: string) {
      await requireDevice(raw, auth, thingsId, 'write');
      const row = await repo.cancel(auth.tenantId, thingsId, id);
      if (!row) throw conflict('command.not-cancellable', 'Only a scheduled upgrade can be cancelled');
      await emit(row);
      return toUpgrade(row);
    },

    /** The image for the device of a valid token (while its upgrade is running), which proves itself. */
    async download(token: string, proof: string | string[] | undefined) {
      const row = await repo.download(token);
      if (!row) throw notFound('Unknown or finished upgrade');
      await checkLinkProof(raw, row.things_id, token, proof);
      const image = await files.open(fileOf(row.firmware_id));
      if (!image) throw notFound('The firmware image is gone');
      return { size: image.size, name: row.file_name, stream: image.stream };
    },

    /** Each second: start scheduled upgrades that are due; end those whose command timed out. */
    async sweep() {
      for (const u of await repo.claimDue(owner)) {
        const fw = await repo.byId(u.firmware_id);
        if (fw) await start(u, fw, null);
      }
      for (const u of await repo.stale())
        await update(u.id, { state: 'flash failed', code: 'command.no-response', message: 'the device stopped reporting' });
    },

    /**
     * Upgrades a stopped server copy was starting. Once the command is out, the upgrade is the
     * device's: it keeps waiting for the device's report (or its time-out), even when the copy stopped
     * before noting the command. One the server was still preparing (not sent) ends as failed with
     * the reason. A device's final report that was stored but not applied is applied now.
     */
    async recover(pass: RecoveryPass): Promise<number> {
      const linked = await repo.relinkSent(pass.owner, pass.dead('u.owner'), Operations.firmwareUpgrade);
      const unsent = await repo.unsent(pass.dead());
      for (const u of unsent) await update(u.id, { state: 'flash failed', code: INTERRUPTED.code, message: INTERRUPTED.message });
      const reported = await repo.answeredCommands();
      for (const c of reported)
        await onResponse(c, {
          correlation_id: c.correlation_id,
          code: c.state === 'answered' ? 0 : (c.code ?? 1),
          message: c.message ?? undefined,
          payload: c.result ?? undefined,
        });
      return linked.length + unsent.length + reported.length;
    },
  };
}

export type FirmwareService = ReturnType<typeof firmwareService>;
