import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { carApi } from './car.api.ts';

export const carKeys = {
  all: ['car'] as const,
  vehicles: () => [...carKeys.all, 'vehicles'] as const,
  list: (tenantId: string | null, q: { current_page: number; page_size: number; keyword?: string }) =>
    [...carKeys.vehicles(), 'list', tenantId, q] as const,
  one: (tenantId: string | null, id: string) => [...carKeys.vehicles(), 'one', tenantId, id] as const,
  devices: (tenantId: string | null) => [...carKeys.all, 'devices', tenantId] as const,
};

export const vehicleListQuery = (tenantId: string | null, q: { current_page: number; page_size: number; keyword?: string }) =>
  queryOptions({
    queryKey: carKeys.list(tenantId, q),
    queryFn: ({ signal }) => carApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const vehicleQuery = (tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: carKeys.one(tenantId, id),
    queryFn: ({ signal }) => carApi.get(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
    meta: { silent: true },
  });

export const pickerDevicesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: carKeys.devices(tenantId),
    queryFn: ({ signal }) => carApi.devices(tenantId as string, signal),
    enabled: Boolean(tenantId),
    staleTime: 60_000,
  });
