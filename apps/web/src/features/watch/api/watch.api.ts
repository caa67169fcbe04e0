import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { GpsPoint } from '@loggerhead/contract/schemas/gps.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { queryOptions } from '@tanstack/react-query';
import { type CallArgs, call } from '../../../api/client.ts';

/** Devices shown on the map and in the table; the counts cover the whole fleet. */
export const WATCH_DEVICES = 200;
/** Positions are read for at most this many devices (online first), one small call each. */
export const WATCH_POSITIONS = 50;
const FLEET_POLL_MS = 10_000;
const ALERT_POLL_MS = 15_000;
const POSITION_POLL_MS = 30_000;

export interface Fleet {
  total: number;
  online: number;
  devices: Thing[];
}

export const watchApi = {
  fleet: async (tenantId: string, signal?: AbortSignal): Promise<Fleet> => {
    const page = (query: CallArgs<typeof Routes.things.list>['query']) =>
      call(Routes.things.list, { params: { tenant_id: tenantId }, query, signal });
    // Two cheap counts and one page: the counts stay right for fleets larger than the page.
    const [all, online] = await Promise.all([
      page({ current_page: 1, page_size: WATCH_DEVICES, order_param: 'last_seen_at', order_type: 1 }),
      page({ current_page: 1, page_size: 1, is_online: '1' }),
    ]);
    return { total: all.total, online: online.total, devices: all.list };
  },
  alerts: (tenantId: string, since: number, signal?: AbortSignal) =>
    call(Routes.alertEvents.list, { params: { tenant_id: tenantId }, query: { begin_time: since, current_page: 1, page_size: 8 }, signal }),
  lastPosition: async (tenantId: string, thingsId: string, signal?: AbortSignal): Promise<GpsPoint | null> => {
    const r = await call(Routes.gps.live, { params: { tenant_id: tenantId, things_id: thingsId }, query: { limit: 1 }, signal });
    return r.points.at(-1) ?? null;
  },
};

export const watchKeys = {
  all: ['watch'] as const,
  fleet: (tenantId: string | null) => [...watchKeys.all, 'fleet', tenantId] as const,
  alerts: (tenantId: string | null, since: number) => [...watchKeys.all, 'alerts', tenantId, since] as const,
  positions: (tenantId: string | null, ids: string) => [...watchKeys.all, 'positions', tenantId, ids] as const,
};

export const fleetQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: watchKeys.fleet(tenantId),
    queryFn: ({ signal }) => watchApi.fleet(tenantId as string, signal),
    enabled: Boolean(tenantId),
    refetchInterval: FLEET_POLL_MS,
    meta: { silent: true },
  });

export const alertsQuery = (tenantId: string | null, since: number) =>
  queryOptions({
    queryKey: watchKeys.alerts(tenantId, since),
    queryFn: ({ signal }) => watchApi.alerts(tenantId as string, since, signal),
    enabled: Boolean(tenantId),
    refetchInterval: ALERT_POLL_MS,
    meta: { silent: true },
  });

/** Last fix per device; a device without GPS (or without access) is simply left off the map. */
export const positionsQuery = (tenantId: string | null, ids: string[]) =>
  queryOptions({
    queryKey: watchKeys.positions(tenantId, ids.join(',')),
    queryFn: async ({ signal }) => {
      const fixes = await Promise.all(
        ids.map((id) =>
          watchApi
            .lastPosition(tenantId as string, id, signal)
            .then((p) => [id, p] as const)
            .catch(() => [id, null] as const),
        ),
      );
      return new Map(fixes.filter((f): f is readonly [string, GpsPoint] => f[1] !== null));
    },
    enabled: Boolean(tenantId) && ids.length > 0,
    refetchInterval: POSITION_POLL_MS,
    meta: { silent: true },
  });
