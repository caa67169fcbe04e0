import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type DeviceListQuery, thingsApi } from './things.api.ts';

/** Query keys of the tenant's devices (the home page's list, the dashboard's device picker); mutations invalidate through `devices()`. */
export const thingKeys = {
  all: ['things'] as const,
  devices: () => [...thingKeys.all, 'devices'] as const,
  deviceList: (tenantId: string | null, query: DeviceListQuery) => [...thingKeys.devices(), tenantId, query] as const,
  types: (tenantId: string | null) => [...thingKeys.all, 'types', tenantId] as const,
};

/** Online state changes while the page is open, so the list refreshes every 15 s. */
export const DEVICE_LIST_POLL_MS = 15_000;

export const deviceListQuery = (tenantId: string | null, query: DeviceListQuery) =>
  queryOptions({
    queryKey: thingKeys.deviceList(tenantId, query),
    queryFn: ({ signal }) => thingsApi.list(tenantId as string, query, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_POLL_MS,
  });

export const deviceTypesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: thingKeys.types(tenantId),
    queryFn: ({ signal }) => thingsApi.types(tenantId as string, signal),
    enabled: Boolean(tenantId),
    staleTime: 5 * 60_000,
  });
