import type { UpgradeState } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { CommandRow } from '../command/command.repository.ts';

export interface FirmwareRow {
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

export interface UpgradeRow {
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

export type UpgradeChange = Partial<Pick<UpgradeRow, 'state' | 'progress' | 'code' | 'message' | 'correlation_id'>>;

const FW = `f.id, f.tenant_id, f.version, f.version_num, f.model_id, d.name as model_name, f.description, f.type, f.sub_dev_id, f.file_name,
  f.size::float8 as size, f.sha256, f.to_public, f.created_at`;
const UP = `id, tenant_id, things_id, firmware_id, version, state, progress, code, message, token, correlation_id, scheduled_at, started_at,
  finished_at, created_at`;

/** Firmware files (a tenant's own and public ones) and the upgrades of its devices. */
export function firmwareRepository(raw: RawSql) {
  return {
    /** A firmware the tenant may use: its own or a public one. */
    async visible(tenantId: string, id: string): Promise<FirmwareRow | null> {
      const { rows } = await raw.query<FirmwareRow>(
        `select ${FW} from firmwares f join device_types d on d.id = f.model_id where f.id = $1 and (f.tenant_id = $2 or f.to_public)`,
        [id, tenantId],
      );
      return rows[0] ?? null;
    },

    /** Any tenant's firmware (the scheduler starts due upgrades of every tenant). */
    async byId(id: string): Promise<FirmwareRow | null> {
      const fw = await raw.query<FirmwareRow>(`select ${FW} from firmwares f join device_types d on d.id = f.model_id where f.id = $1`, [
        id,
      ]);
      return fw.rows[0] ?? null;
    },

    async updateUpgrade(id: string, set: UpgradeChange, onlyOpen: boolean): Promise<UpgradeRow | null> {
      const { rows } = await raw.query<UpgradeRow>(
        `update firmware_upgrades set state = coalesce($2, state), progress = coalesce($3, progress), code = coalesce($4, code),
              message = coalesce($5, message), correlation_id = coalesce($6, correlation_id),
              started_at = case when $2 = 'busy' then coalesce(started_at, now()) else started_at end,
              finished_at = case when $2 in ('invalid','flash success','flash failed','cancelled') then now() else finished_at end,
              token = case when $2 in ('invalid','flash success','flash failed','cancelled') then null else token end
        where id = $1 ${onlyOpen ? `and state in ('scheduled','idle','busy')` : ''} returning ${UP}`,
        [id, set.state ?? null, set.progress ?? null, set.code ?? null, set.message ?? null, set.correlation_id ?? null],
      );
      return rows[0] ?? null;
    },

    async upgradeOfCommand(thingsId: string, correlationId: string): Promise<UpgradeRow | null> {
      const { rows } = await raw.query<UpgradeRow>(`select ${UP} from firmware_upgrades where things_id = $1 and correlation_id = $2`, [
        thingsId,
        correlationId,
      ]);
      return rows[0] ?? null;
    },

    /** The version a device runs after a successful flash. */
    async setDeviceFirmware(thingsId: string, version: string): Promise<void> {
      await raw.query('update things set firmware = $2 where id = $1', [thingsId, version]);
    },

    async list(
      tenantId: string,
      q: { current_page: number; page_size: number; model_id?: string; type?: string },
    ): Promise<{ total: number; rows: FirmwareRow[] }> {
      const where = `(f.tenant_id = $1 or f.to_public) and ($2::uuid is null or f.model_id = $2) and ($3::text is null or f.type = $3)`;
      const params = [tenantId, q.model_id ?? null, q.type ?? null];
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from firmwares f where ${where}`, params);
      const { rows } = await raw.query<FirmwareRow>(
        `select ${FW} from firmwares f join device_types d on d.id = f.model_id where ${where}
          order by f.version_num desc, f.created_at desc limit $4 offset $5`,
        [...params, q.page_size, (q.current_page - 1) * q.page_size],
      );
      return { total: total.rows[0].n, rows };
    },

    /** A device type the tenant may use (its own or a shared one). */
    async deviceTypeUsable(tenantId: string, modelId: string): Promise<boolean> {
      const type = await raw.query('select 1 from device_types where id = $1 and (tenant_id is null or tenant_id = $2)', [
        modelId,
        tenantId,
      ]);
      return type.rows.length > 0;
    },

    /** Throws the driver's 23505 when the version exists. */
    async insert(f: {
      tenantId: string;
      version: string;
      versionNum: number;
      modelId: string;
      description: string | null;
      type: 'self' | 'outer';
      subDevId: string | null;
      fileName: string;
      size: number;
      sha256: string;
      createdBy: string | null;
    }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into firmwares (tenant_id, version, version_num, model_id, description, type, sub_dev_id, file_name, size, sha256, created_by)
           values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) returning id`,
        [f.tenantId, f.version, f.versionNum, f.modelId, f.description, f.type, f.subDevId, f.fileName, f.size, f.sha256, f.createdBy],
      );
      return rows[0].id;
    },

    async installing(firmwareId: string): Promise<boolean> {
      const busy = await raw.query(`select 1 from firmware_upgrades where firmware_id = $1 and state = 'busy'`, [firmwareId]);
      return busy.rows.length > 0;
    },

    /** False when the tenant has no such firmware. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>('delete from firmwares where id = $1 and tenant_id = $2 returning id', [
        id,
        tenantId,
      ]);
      return rows.length > 0;
    },

    /** False when the tenant has no such firmware. */
    async setPublic(tenantId: string, id: string, toPublic: boolean): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>(
        'update firmwares set to_public = $3 where id = $1 and tenant_id = $2 returning id',
        [id, tenantId, toPublic],
      );
      return rows.length > 0;
    },

    /** devtype is a device type id or name; the tenant's own firmware before a public one. */
    async byTypeAndVersion(tenantId: string, devtype: string, version: string): Promise<FirmwareRow | null> {
      const { rows } = await raw.query<FirmwareRow>(
        `select ${FW} from firmwares f join device_types d on d.id = f.model_id
          where (d.id::text = $1 or d.name = $1) and f.version = $2 and (f.tenant_id = $3 or f.to_public)
          order by (f.tenant_id = $3) desc limit 1`,
        [devtype, version, tenantId],
      );
      return rows[0] ?? null;
    },

    /** The tenant's own firmware before a public one. */
    async forUpgrade(tenantId: string, modelId: string, version: string, type: 'self' | 'outer'): Promise<FirmwareRow | null> {
      const { rows: fws } = await raw.query<FirmwareRow>(
        `select ${FW} from firmwares f join device_types d on d.id = f.model_id
          where f.model_id = $1 and f.version = $2 and f.type = $3 and (f.tenant_id = $4 or f.to_public)
          order by (f.tenant_id = $4) desc limit 1`,
        [modelId, version, type, tenantId],
      );
      return fws[0] ?? null;
    },

    /** A running or scheduled upgrade of the device. */
    async upgradePending(thingsId: string): Promise<boolean> {
      const busy = await raw.query(`select 1 from firmware_upgrades where things_id = $1 and state in ('busy','scheduled')`, [thingsId]);
      return busy.rows.length > 0;
    },

    async insertUpgrade(u: {
      tenantId: string;
      thingsId: string;
      firmwareId: string;
      version: string;
      state: 'scheduled' | 'idle';
      token: string;
      scheduledAt: Date | null;
      createdBy: string | null;
      owner: string | null;
    }): Promise<UpgradeRow> {
      const { rows } = await raw.query<UpgradeRow>(
        `insert into firmware_upgrades (tenant_id, things_id, firmware_id, version, state, token, scheduled_at, created_by, owner)
           values ($1,$2,$3,$4,$5,$6,$7,$8,$9) returning ${UP}`,
        [u.tenantId, u.thingsId, u.firmwareId, u.version, u.state, u.token, u.scheduledAt, u.createdBy, u.owner],
      );
      return rows[0];
    },

    async upgradesOf(tenantId: string, thingsId: string): Promise<UpgradeRow[]> {
      const { rows } = await raw.query<UpgradeRow>(
        `select ${UP} from firmware_upgrades where tenant_id = $1 and things_id = $2 order by created_at desc limit 100`,
        [tenantId, thingsId],
      );
      return rows;
    },

    /** Null when the upgrade is no longer scheduled or idle. */
    async cancel(tenantId: string, thingsId: string, id: string): Promise<UpgradeRow | null> {
      const { rows } = await raw.query<UpgradeRow>(
        `update firmware_upgrades set state = 'cancelled', finished_at = now(), token = null
          where id = $1 and tenant_id = $2 and things_id = $3 and state in ('scheduled','idle') returning ${UP}`,
        [id, tenantId, thingsId],
      );
      return rows[0] ?? null;
    },

    /** The image a running upgrade's one-time token opens. */
    async download(token: string): Promise<{ things_id: string; firmware_id: string; size: number; file_name: string } | null> {
      const { rows } = await raw.query<{ things_id: string; firmware_id: string; size: number; file_name: string }>(
        `select u.things_id, u.firmware_id, f.size::float8 as size, f.file_name from firmware_upgrades u join firmwares f on f.id = u.firmware_id
          where u.token = $1 and u.state = 'busy'`,
        [token],
      );
      return rows[0] ?? null;
    },

    /** Claims up to 50 due scheduled upgrades for this server copy (state idle). */
    async claimDue(owner: string | null): Promise<UpgradeRow[]> {
      const { rows } = await raw.query<UpgradeRow>(
        `update firmware_upgrades set state = 'idle', owner = $1 where id in
           (select id from firmware_upgrades where state = 'scheduled' and scheduled_at <= now() limit 50)
             and state = 'scheduled' returning ${UP}`,
        [owner],
      );
      return rows;
    },

    /** Running upgrades whose command timed out, expired or was cancelled. */
    async stale(): Promise<UpgradeRow[]> {
      const stale = await raw.query<UpgradeRow>(
        `select ${UP} from firmware_upgrades where state = 'busy' and correlation_id in
           (select correlation_id from device_commands where state in ('timeout','expired','cancelled') and things_id = firmware_upgrades.things_id)`,
      );
      return stale.rows;
    },

    /**
     * Links running upgrades of stopped copies (`dead` is the SQL test on `u.owner`) to the command
     * already sent for them, and takes them over.
     */
    async relinkSent(owner: string, dead: string, operation: string): Promise<{ id: string }[]> {
      const linked = await raw.query<{ id: string }>(
        `update firmware_upgrades u set correlation_id = c.correlation_id, owner = $1
           from device_commands c
          where u.state = 'busy' and u.correlation_id is null and ${dead}
            and c.things_id = u.things_id and c.operation_name = $2 and c.operation_params->>'url' like '%/' || u.token
          returning u.id`,
        [owner, operation],
      );
      return linked.rows;
    },

    /** Upgrades of stopped copies (`dead` is the SQL test on `owner`) whose command was never sent. */
    async unsent(dead: string): Promise<{ id: string }[]> {
      const unsent = await raw.query<{ id: string }>(
        `select id from firmware_upgrades where state in ('idle', 'busy') and correlation_id is null and ${dead}`,
      );
      return unsent.rows;
    },

    /** Commands of running upgrades the device answered (stored, not yet applied). */
    async answeredCommands(): Promise<CommandRow[]> {
      const reported = await raw.query<CommandRow>(
        `select c.* from firmware_upgrades u join device_commands c on c.things_id = u.things_id and c.correlation_id = u.correlation_id
          where u.state = 'busy' and c.state in ('answered', 'failed')`,
      );
      return reported.rows;
    },
  };
}

export type FirmwareRepository = ReturnType<typeof firmwareRepository>;
