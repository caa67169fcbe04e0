import type { EcuFileType } from '@loggerhead/contract/schemas/ecu.ts';
import { queryOptions } from '@tanstack/react-query';
import { ecuApi } from './ecu.api.ts';

/**
 * Query keys of the tenant's ECUs, ECU files and fault codes (factory: every key of this area is built here).
 * The ECU pages edit them; the device's UDS and ECU-upgrade tabs read them.
 */
export const ecuKeys = {
  all: ['ecu'] as const,
  tenant: (tenantId: string) => [...ecuKeys.all, tenantId] as const,
  ecus: (tenantId: string, keyword?: string) => [...ecuKeys.tenant(tenantId), 'ecus', keyword ?? ''] as const,
  files: (tenantId: string, type?: EcuFileType) => [...ecuKeys.tenant(tenantId), 'ecu-files', type ?? ''] as const,
  faultCodes: (tenantId: string, fileId: string | null) => [...ecuKeys.tenant(tenantId), 'fault-codes', fileId ?? ''] as const,
};

export const ecusQuery = (tenantId: string, keyword?: string) =>
  queryOptions({
    queryKey: ecuKeys.ecus(tenantId, keyword),
    queryFn: ({ signal }) => ecuApi.list(tenantId, keyword, signal),
    enabled: Boolean(tenantId),
  });

export const ecuFilesQuery = (tenantId: string, type?: EcuFileType) =>
  queryOptions({
    queryKey: ecuKeys.files(tenantId, type),
    queryFn: ({ signal }) => ecuApi.files(tenantId, type, signal),
    enabled: Boolean(tenantId),
  });

export const faultCodesQuery = (tenantId: string, fileId: string | null) =>
  queryOptions({
    queryKey: ecuKeys.faultCodes(tenantId, fileId),
    queryFn: ({ signal }) => ecuApi.faultCodes(tenantId, fileId as string, signal),
    enabled: Boolean(tenantId && fileId),
  });
