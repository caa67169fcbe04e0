import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Fence, FenceInput, FencePageSchema } from '@loggerhead/contract/schemas/fence.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, call } from '../../../api/client.ts';

export type FencePage = z.infer<typeof FencePageSchema>;

export interface FenceListQuery {
  name?: string;
  things_id?: string;
  current_page: number;
  page_size: number;
}

const fencesPath = (tenantId: string) => `/fence/tenants/${encodeURIComponent(tenantId)}/fences`;

/** Electronic fences (spec §7 fence service). */
export const efenceApi = {
  list: (tenantId: string, q: FenceListQuery, signal?: AbortSignal) =>
    api.get<FencePage>(fencesPath(tenantId), { signal, query: { ...q }, permission: 'fence:fence:query' }),
  get: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<Fence>(`${fencesPath(tenantId)}/${encodeURIComponent(id)}`, { signal, permission: 'fence:fence:query' }),
  create: (tenantId: string, body: FenceInput) => api.post<Fence>(fencesPath(tenantId), body, { permission: 'fence:fence:create' }),
  update: (tenantId: string, id: string, body: FenceInput) =>
    api.put<Fence>(`${fencesPath(tenantId)}/${encodeURIComponent(id)}`, body, { permission: 'fence:fence:update' }),
  bind: (tenantId: string, id: string, thingsIds: string[]) =>
    api.put<Fence>(
      `${fencesPath(tenantId)}/${encodeURIComponent(id)}/things`,
      { things_ids: thingsIds },
      { permission: 'fence:fence:update' },
    ),
  remove: (tenantId: string, id: string) =>
    api.delete<{ ok: true }>(`${fencesPath(tenantId)}/${encodeURIComponent(id)}`, { permission: 'fence:fence:delete' }),
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
