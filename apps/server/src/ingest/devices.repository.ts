import type { GpsFix } from '@loggerhead/can/protocol/messages.ts';
import type { RawSql } from '../db/client.ts';

interface DeviceRow {
  id: string;
  tenant_id: string;
  things_key: string;
  thing_type: number;
  /** Its gateway's thing and device ID, when it is a child. */
  parent_things_id: string | null;
  parent_device_id: string | null;
}

/**
 * What the ingest reads and writes about devices: identity by device ID (unique platform-wide, so
 * not scoped by tenant), online state and status, the device event log, malformed counts, GPS fixes.
 */
export function ingestDevicesRepository(raw: RawSql) {
  return {
    /** Several devices in one statement (a fleet connecting at once); the ones not found are absent. */
    async byDeviceIds(deviceIds: string[]): Promise<(DeviceRow & { third_things_id: string })[]> {
      const { rows } = await raw.query<DeviceRow & { third_things_id: string }>(
        `select t.third_things_id, t.id, t.tenant_id, t.things_key, t.thing_type, t.parent_things_id, p.third_things_id as parent_device_id
           from things t left join things p on p.id = t.parent_things_id and p.tenant_id = t.tenant_id
          where t.third_things_id = any($1::text[])`,
        [deviceIds],
      );
      return rows;
    },

    async event(tenantId: string, thingsId: string, kind: string, message: string, detail: Record<string, unknown> | null): Promise<void> {
      await raw.query('insert into device_events (tenant_id, things_id, kind, message, detail) values ($1,$2,$3,$4,$5::jsonb)', [
        tenantId,
        thingsId,
        kind,
        message,
        detail === null ? null : JSON.stringify(detail),
      ]);
    },

    /**
     * Online state of many devices in one statement (one row per device), and their connect and
     * disconnect events in another: a fleet connecting at once is a few statements, not two per device.
     */
    async setOnlineMany(
      changes: { tenantId: string; thingsId: string; online: boolean; detail: Record<string, unknown> | null }[],
    ): Promise<void> {
      if (!changes.length) return;
      const last = new Map<string, boolean>();
      for (const c of changes) last.set(c.thingsId, c.online);
      await raw.query(
        `update things t set is_online = v.online, connection_status = case when v.online then 1 else 2 end, last_seen_at = now()
           from unnest($1::uuid[], $2::boolean[]) as v(id, online) where t.id = v.id`,
        [[...last.keys()], [...last.values()]],
      );
      const params: unknown[] = [];
      const rows = changes.map((c) => {
        const b = params.length;
        params.push(
          c.tenantId,
          c.thingsId,
          c.online ? 'connect' : 'disconnect',
          c.online ? 'connected' : 'disconnected',
          c.detail === null ? null : JSON.stringify(c.detail),
        );
        return `($${b + 1},$${b + 2},$${b + 3},$${b + 4},$${b + 5}::jsonb)`;
      });
      await raw.query(`insert into device_events (tenant_id, things_id, kind, message, detail) values ${rows.join(',')}`, params);
    },

    async addMalformed(thingsId: string, n: number): Promise<void> {
      await raw.query('update things set malformed_count = malformed_count + $2 where id = $1', [thingsId, n]);
    },

    /** A status uplink: online state and what the device reports (unset fields keep their value). */
    async setStatus(
      thingsId: string,
      s: { online: boolean; firmware: string | null; sdState: string | null; channelEnable: number | null; server: string | null },
    ): Promise<void> {
      await raw.query(
        `update things set is_online = $2, connection_status = $3, last_seen_at = now(),
                  firmware = coalesce($4, firmware), sd_card_status = coalesce($5, sd_card_status),
                  channel_enable = coalesce($6, channel_enable), server = coalesce($7, server)
            where id = $1`,
        [thingsId, s.online, s.online ? 1 : 2, s.firmware, s.sdState, s.channelEnable, s.server],
      );
    },

    async insertGps(tenantId: string, thingsId: string, fixes: GpsFix[]): Promise<void> {
      const params: unknown[] = [];
      const rows = fixes.map((f) => {
        const b = params.length;
        params.push(tenantId, thingsId, Math.round(f.ts), f.lat, f.lon, f.alt ?? null, f.speed ?? null, f.heading ?? null, f.sats ?? null);
        return `(${Array.from({ length: 9 }, (_, i) => `$${b + i + 1}`).join(',')})`;
      });
      await raw.query(
        `insert into gps_fixes (tenant_id, things_id, ts, lat, lon, alt, speed, heading, sats) values ${rows.join(',')}`,
        params,
      );
    },

    /** Devices that are still marked online from before a restart of the embedded broker are not. */
    async resetOnline(): Promise<void> {
      await raw.query(`update things set is_online = false, connection_status = 2 where is_online`);
    },
  };
}
