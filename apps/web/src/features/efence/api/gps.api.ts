import { type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

export type GpsLive = RouteResponse<typeof Routes.gps.live>;

/** Live positions refresh every few seconds. */
export const GPS_LIVE_POLL_MS = 5_000;
export const GPS_LIVE_POINTS = 50;

/** A device's GPS track (thinned, with distance and stops) and its last fixes. */
export const gpsApi = {
  track: (tenantId: string, thingsId: string, range: [number, number], signal?: AbortSignal) =>
    call(Routes.gps.track, {
      params: { tenant_id: tenantId, things_id: thingsId },
      query: { begin_time: Math.floor(range[0]), end_time: Math.floor(range[1]) },
      signal,
      timeout: 60_000,
    }),
  live: (tenantId: string, thingsId: string, limit: number, signal?: AbortSignal) =>
    call(Routes.gps.live, { params: { tenant_id: tenantId, things_id: thingsId }, query: { limit }, signal }),
};

export const gpsKeys = {
  all: ['gps'] as const,
  thing: (tenantId: string | null, thingsId: string) => [...gpsKeys.all, tenantId, thingsId] as const,
  track: (tenantId: string | null, thingsId: string, range: [number, number] | null) =>
    [...gpsKeys.thing(tenantId, thingsId), 'track', range] as const,
  live: (tenantId: string | null, thingsId: string) => [...gpsKeys.thing(tenantId, thingsId), 'live'] as const,
};

export const gpsTrackQuery = (tenantId: string | null, thingsId: string, range: [number, number] | null) =>
  queryOptions({
    queryKey: gpsKeys.track(tenantId, thingsId, range),
    queryFn: ({ signal }) => gpsApi.track(tenantId as string, thingsId, range as [number, number], signal),
    enabled: Boolean(tenantId && range),
  });

export const gpsLiveQuery = (tenantId: string | null, thingsId: string, on: boolean) =>
  queryOptions({
    queryKey: gpsKeys.live(tenantId, thingsId),
    queryFn: ({ signal }) => gpsApi.live(tenantId as string, thingsId, GPS_LIVE_POINTS, signal),
    enabled: Boolean(tenantId && on),
    refetchInterval: GPS_LIVE_POLL_MS,
  });
