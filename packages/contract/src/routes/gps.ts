import { GpsLiveQuerySchema, GpsLiveSchema, GpsTrackQuerySchema, GpsTrackSchema } from '../schemas/gps.ts';
import { DeviceParams, defineRoute } from './define.ts';

const base = '/things/tenants/:tenant_id/things/:things_id/gps';

/** GPS track of a device for a time range (thinned, with distance and stops), and its latest fixes. */
export const GpsRoutes = {
  track: defineRoute({
    method: 'GET',
    path: base,
    params: DeviceParams,
    query: GpsTrackQuerySchema,
    response: GpsTrackSchema,
    permission: 'things:gps:query',
  }),
  live: defineRoute({
    method: 'GET',
    path: `${base}/live`,
    params: DeviceParams,
    query: GpsLiveQuerySchema,
    response: GpsLiveSchema,
    permission: 'things:gps:query',
  }),
};
