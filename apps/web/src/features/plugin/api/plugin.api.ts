import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const R = Routes.plugins;
export type PluginBody = RouteBody<typeof R.create>;
export interface PluginQuery {
  current_page: number;
  page_size: number;
  type?: 'transform' | 'export';
}

/** Data transform and export plugins (JSONata expressions) and their test run. */
export const pluginApi = {
  list: (tenantId: string, q: PluginQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  create: (tenantId: string, body: PluginBody) => call(R.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: PluginBody) => call(R.update, { params: { tenant_id: tenantId, id }, body }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenant_id: tenantId, id } }),
  test: (tenantId: string, expression: string, input: unknown) =>
    call(R.test, { params: { tenant_id: tenantId }, body: { expression, input } }),
};

export const pluginKeys = {
  all: ['plugins'] as const,
  list: (tenantId: string | null, q: object) => [...pluginKeys.all, 'list', tenantId, q] as const,
};

export const pluginListQuery = (tenantId: string | null, q: PluginQuery) =>
  queryOptions({
    queryKey: pluginKeys.list(tenantId, q),
    queryFn: ({ signal }) => pluginApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });
