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
  /** Device events, many in one statement (a storm of failing connects must not cost one each). */
  const insertEvents = async (
    list: { tenantId: string; thingsId: string; kind: string; message: string; detail: Record<string, unknown> | null }[],
  ): Promise<void> => {
    if (!list.length) return;
    await raw.query(
      `insert into device_events (tenant_id, things_id, kind, message, detail)
         select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[])`,
      [
        list.map((e) => e.tenantId),
        list.map((e) => e.thingsId),
        list.map((e) => e.kind),
        list.map((e) => e.message),
        list.map((e) => (e.detail === null ? null : JSON.stringify(e.detail))),
      ],
    );
  };

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

    events: insertEvents,

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
      await insertEvents(
        changes.map((c) => ({
          tenantId: c.tenantId,
          thingsId: c.thingsId,
          kind: c.online ? 'connect' : 'disconnect',
          message: c.online ? 'connected' : 'disconnected',
          detail: c.detail,
        })),
      );
    },

    async addMalformed(thingsId: string, n: number): Promise<void> {
      await raw.query('update things set malformed_count = malformed_count + $2 where id = $1', [thingsId, n]);
    },

    /**
     * Status uplinks of many devices in one statement: online state and what each reports (unset
     * fields keep their value). Several of one device are folded in their order first.
     */
    async setStatusMany(
      list: {
        thingsId: string;
        online: boolean;
        firmware: string | null;
        sdState: string | null;
        channelEnable: number | null;
        server: string | null;
      }[],
    ): Promise<void> {
      if (!list.length) return;
      const by = new Map<string, (typeof list)[number]>();
      for (const s of list) {
        const o = by.get(s.thingsId);
        by.set(
          s.thingsId,
          o
            ? {
                thingsId: s.thingsId,
                online: s.online,
                firmware: s.firmware ?? o.firmware,
                sdState: s.sdState ?? o.sdState,
                channelEnable: s.channelEnable ?? o.channelEnable,
                server: s.server ?? o.server,
              }
            : s,
        );
      }
      const v = [...by.values()];
      await raw.query(
        `update things t set is_online = v.online, connection_status = case when v.online then 1 else 2 end, last_seen_at = now(),
                  firmware = coalesce(v.firmware, t.firmware), sd_card_status = coalesce(v.sd, t.sd_card_status),
                  channel_enable = coalesce(v.ch, t.channel_enable), server = coalesce(v.server, t.server)
            from unnest($1::uuid[], $2::boolean[], $3::text[], $4::text[], $5::int[], $6::text[]) as v(id, online, firmware, sd, ch, server)
           where t.id = v.id`,
        [
          v.map((s) => s.thingsId),
          v.map((s) => s.online),
          v.map((s) => s.firmware),
          v.map((s) => s.sdState),
          v.map((s) => s.channelEnable),
          v.map((s) => s.server),
        ],
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
