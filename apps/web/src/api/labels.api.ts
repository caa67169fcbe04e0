import type { RouteBody, RouteResponse } from '@loggerhead/contract/routes/define.ts';
import { LabelRoutes } from '@loggerhead/contract/routes/org.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './client.ts';

const R = LabelRoutes;

export type LabelPage = RouteResponse<typeof R.list>;
export type LabelInput = RouteBody<typeof R.create>;
export interface LabelListQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

/**
 * The tenant's label registry (spec §7 tenant service labels): its own screen edits it, the device
 * list filters by it and the device label editor picks from it.
 */
export const labelsApi = {
  list: (tenantId: string, q: LabelListQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  all: (tenantId: string, signal?: AbortSignal) => call(R.batch, { params: { tenant_id: tenantId }, query: {}, signal }),
  create: (tenantId: string, body: LabelInput) => call(R.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: LabelInput) => call(R.update, { params: { tenant_id: tenantId, id }, body }),
  remove: (tenantId: string, ids: string[]) => call(R.remove, { params: { tenant_id: tenantId, ids: ids.join(',') } }),
};

export const labelKeys = {
  all: ['labels'] as const,
  list: (tenantId: string | null, q: LabelListQuery) => [...labelKeys.all, 'list', tenantId, q] as const,
  registry: (tenantId: string | null) => [...labelKeys.all, 'registry', tenantId] as const,
};

export const labelListQuery = (tenantId: string | null, q: LabelListQuery) =>
  queryOptions({
    queryKey: labelKeys.list(tenantId, q),
    queryFn: ({ signal }) => labelsApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

/** Every label of the tenant (spec §9: batch labels, 10000 at most). */
export const labelRegistryQuery = (tenantId: string | null, enabled = true) =>
  queryOptions({
    queryKey: labelKeys.registry(tenantId),
    queryFn: ({ signal }) => labelsApi.all(tenantId as string, signal),
    enabled: Boolean(tenantId) && enabled,
    staleTime: 30_000,
  });
