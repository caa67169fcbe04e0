import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type DeviceListQuery, homeApi } from './home.api.ts';

/** Query keys of the home page; mutations invalidate through `devices()`. */
export const homeKeys = {
  all: ['home'] as const,
  devices: () => [...homeKeys.all, 'devices'] as const,
  deviceList: (tenantId: string | null, query: DeviceListQuery) => [...homeKeys.devices(), tenantId, query] as const,
  types: (tenantId: string | null) => [...homeKeys.all, 'types', tenantId] as const,
};

/** Online state changes while the page is open, so the list refreshes every 15 s. */
export const DEVICE_LIST_POLL_MS = 15_000;

export const deviceListQuery = (tenantId: string | null, query: DeviceListQuery) =>
  queryOptions({
    queryKey: homeKeys.deviceList(tenantId, query),
    queryFn: ({ signal }) => homeApi.list(tenantId as string, query, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_POLL_MS,
  });

export const deviceTypesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: homeKeys.types(tenantId),
    queryFn: ({ signal }) => homeApi.types(tenantId as string, signal),
    enabled: Boolean(tenantId),
    staleTime: 5 * 60_000,
  });
