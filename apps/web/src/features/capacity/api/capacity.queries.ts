import type { TpsRequest } from '@loggerhead/contract/schemas/billing.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { capacityApi } from './capacity.api.ts';

export const capacityKeys = {
  all: ['capacity'] as const,
  perDevice: (tenantId: string | null, page: number, size: number) => [...capacityKeys.all, 'per-device', tenantId, page, size] as const,
  package: (tenantId: string | null) => [...capacityKeys.all, 'package', tenantId] as const,
  devices: (tenantId: string | null) => [...capacityKeys.all, 'devices', tenantId] as const,
  tps: (q: TpsRequest) => [...capacityKeys.all, 'tps', q] as const,
};

/** Spec §8: a failing capacity table clears the list (total 0); the error is shown once by the funnel. */
export const perDeviceUsageQuery = (tenantId: string | null, page: number, size: number) =>
  queryOptions({
    queryKey: capacityKeys.perDevice(tenantId, page, size),
    queryFn: ({ signal }) => capacityApi.perDevice(tenantId as string, { current_page: page, page_size: size }, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const packageQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: capacityKeys.package(tenantId),
    queryFn: ({ signal }) => capacityApi.package(tenantId as string, signal),
    enabled: Boolean(tenantId),
    staleTime: 30_000,
  });

export const devicesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: capacityKeys.devices(tenantId),
    queryFn: ({ signal }) => capacityApi.devices(tenantId as string, signal),
    enabled: Boolean(tenantId),
    staleTime: 60_000,
    meta: { silent: true },
  });
