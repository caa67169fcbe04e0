import type { GpsPoint } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

const COLS = 'ts, lat, lon, alt, speed, heading, sats';

const toPoint = (r: Record<string, unknown>): GpsPoint => ({
  ts: Number(r.ts),
  lat: Number(r.lat),
  lon: Number(r.lon),
  alt: r.alt === null ? null : Number(r.alt),
  speed: r.speed === null ? null : Number(r.speed),
  heading: r.heading === null ? null : Number(r.heading),
  sats: r.sats === null ? null : Number(r.sats),
});

export function gpsRepository(raw: RawSql) {
  return {
    /** Fixes in [begin, end) ms, time order, at most `limit`. */
    async range(auth: Auth, thingsId: string, begin: number, end: number, limit: number): Promise<GpsPoint[]> {
      const { rows } = await raw.query<Record<string, unknown>>(
        `select ${COLS} from gps_fixes where tenant_id = $1 and things_id = $2 and ts >= $3 and ts < $4 order by ts limit $5`,
        [auth.tenantId, thingsId, begin, end, limit],
      );
      return rows.map(toPoint);
    },

    async latest(auth: Auth, thingsId: string, limit: number): Promise<GpsPoint[]> {
      const { rows } = await raw.query<Record<string, unknown>>(
        `select ${COLS} from gps_fixes where tenant_id = $1 and things_id = $2 order by ts desc limit $3`,
        [auth.tenantId, thingsId, limit],
      );
      return rows.map(toPoint).reverse();
    },
  };
}
export type GpsRepository = ReturnType<typeof gpsRepository>;
