import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const R = Routes.apiKeys;
export type ApiKeyBody = RouteBody<typeof R.create>;

/** Tenant API keys for machines: list, create (token shown once), revoke. */
export const apiKeyApi = {
  list: (tenantId: string, q: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  create: (tenantId: string, body: ApiKeyBody) => call(R.create, { params: { tenant_id: tenantId }, body }),
  revoke: (tenantId: string, id: string) => call(R.revoke, { params: { tenant_id: tenantId, id } }),
  devices: (tenantId: string, keyword: string | undefined, signal?: AbortSignal) =>
    call(Routes.things.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 200, keyword }, signal }),
};

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (tenantId: string | null, q: object) => [...apiKeyKeys.all, 'list', tenantId, q] as const,
  devices: (tenantId: string | null, keyword?: string) => [...apiKeyKeys.all, 'devices', tenantId, keyword] as const,
};

export const apiKeyListQuery = (tenantId: string | null, q: { current_page: number; page_size: number }) =>
  queryOptions({
    queryKey: apiKeyKeys.list(tenantId, q),
    queryFn: ({ signal }) => apiKeyApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });
