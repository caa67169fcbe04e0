import { type RouteBody, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './client.ts';

const R = Routes.fence;

export type FencePage = RouteResponse<typeof R.list>;

export interface FenceListQuery {
  name?: string;
  things_id?: string;
  current_page: number;
  page_size: number;
}

/** Electronic fences (spec §7 fence service). */
export const efenceApi = {
  list: (tenantId: string, q: FenceListQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  get: (tenantId: string, id: string, signal?: AbortSignal) => call(R.get, { params: { tenant_id: tenantId, id }, signal }),
  create: (tenantId: string, body: RouteBody<typeof R.create>) => call(R.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: RouteBody<typeof R.update>) => call(R.update, { params: { tenant_id: tenantId, id }, body }),
  bind: (tenantId: string, id: string, thingsIds: string[]) =>
    call(R.bind, { params: { tenant_id: tenantId, id }, body: { things_ids: thingsIds } }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenant_id: tenantId, id } }),
  /** Devices to bind: the picker lists things with page size 9999 (spec §7). */
  devices: async (tenantId: string, signal?: AbortSignal): Promise<Thing[]> =>
    (
      await call(Routes.things.list, {
        params: { tenant_id: tenantId },
        query: { current_page: 1, page_size: 9999, order_param: 'name', order_type: 0 },
        signal,
      })
    ).list,
};

/** Query keys of the e-fence area. */
export const efenceKeys = {
  all: ['efence'] as const,
  tenant: (tenantId: string | null) => [...efenceKeys.all, tenantId] as const,
  list: (tenantId: string | null, q: FenceListQuery) => [...efenceKeys.tenant(tenantId), 'list', q] as const,
  one: (tenantId: string | null, id: string) => [...efenceKeys.tenant(tenantId), 'one', id] as const,
  devices: (tenantId: string | null) => [...efenceKeys.tenant(tenantId), 'devices'] as const,
};

export const fenceDevicesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: efenceKeys.devices(tenantId),
    queryFn: ({ signal }) => efenceApi.devices(tenantId as string, signal),
    enabled: Boolean(tenantId),
    staleTime: 60_000,
  });

export const fenceListQuery = (tenantId: string | null, q: FenceListQuery) =>
  queryOptions({
    queryKey: efenceKeys.list(tenantId, q),
    queryFn: ({ signal }) => efenceApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const fenceQuery = (tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: efenceKeys.one(tenantId, id),
    queryFn: ({ signal }) => efenceApi.get(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
  });
