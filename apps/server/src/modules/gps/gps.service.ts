import { GPS_HISTORY_MAX, type GpsTrack, type GpsTrackQuery } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { requireDevice } from '../things/things.access.ts';
import type { GpsRepository } from './gps.repository.ts';
import { findStops, thinTrack, trackDistance } from './gps.track.ts';

/** GPS track (spec §2 GPS track tab, §9: 200000 history points, 5000 real-time). */
export function gpsService(raw: RawSql, repo: GpsRepository) {
  return {
    async track(auth: Auth, thingsId: string, q: GpsTrackQuery): Promise<GpsTrack> {
      if (q.end_time <= q.begin_time) throw new ApiError(400, 'data.bad-range', undefined, { field: 'end_time' });
      await requireDevice(raw, auth, thingsId, 'read');
      const all = await repo.range(auth, thingsId, q.begin_time, q.end_time, GPS_HISTORY_MAX + 1);
      const truncated = all.length > GPS_HISTORY_MAX;
      if (truncated) all.length = GPS_HISTORY_MAX;
      const keep = thinTrack(all, q.max_points);
      return {
        things_id: thingsId,
        begin_time: q.begin_time,
        end_time: q.end_time,
        total: all.length,
        truncated,
        distance_m: Math.round(trackDistance(all) * 10) / 10,
        stops: findStops(all, q.stop_minutes, q.stop_speed),
        points: keep.map((i) => all[i]),
      };
    },

    async live(auth: Auth, thingsId: string, limit: number) {
      await requireDevice(raw, auth, thingsId, 'read');
      return { things_id: thingsId, points: await repo.latest(auth, thingsId, limit) };
    },
  };
}
