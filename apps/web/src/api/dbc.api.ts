import { type RouteBody, type RouteResponse, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import type { BackfillRange, ParsingState } from '@loggerhead/contract/schemas/dbc.ts';
import { fetchFile } from '../components/data-view/file-download.ts';
import { call } from './client.ts';

const R = Routes.mapping;

export type DbcFilePage = RouteResponse<typeof R.dbcFiles>;
export type StrategyPage = RouteResponse<typeof R.strategies>;

export interface ListQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

/** The multipart body of an upload or a replacement: the `.dbc` file and its form fields. */
function dbcForm(file: File | null, fields: { name?: string; protocol?: number }): FormData {
  const form = new FormData();
  // Fields before the file: the server reads the parts in order.
  if (fields.name) form.append('name', fields.name);
  if (fields.protocol !== undefined) form.append('protocol', String(fields.protocol));
  if (file) form.append('file', file, file.name);
  return form;
}

/** DBC files, signal strategies and channel bindings (mapping service, spec §7). */
export const dbcApi = {
  list: (tenantId: string, q: ListQuery, signal?: AbortSignal) =>
    call(R.dbcFiles, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  get: (tenantId: string, id: string, signal?: AbortSignal) => call(R.dbcFile, { params: { tenant_id: tenantId, id }, signal }),
  upload: (tenantId: string, file: File, fields: { name?: string; protocol?: number }) =>
    call(R.uploadDbc, { params: { tenant_id: tenantId }, body: dbcForm(file, fields) }),
  /** Replaces the file and/or changes name and protocol. */
  update: (tenantId: string, id: string, file: File | null, fields: { name?: string; protocol?: number }) =>
    call(R.updateDbc, { params: { tenant_id: tenantId, id }, body: dbcForm(file, fields) }),
  remove: (tenantId: string, id: string) => call(R.removeDbc, { params: { tenant_id: tenantId, id } }),
  messages: (tenantId: string, id: string, signal?: AbortSignal) => call(R.dbcMessages, { params: { tenant_id: tenantId, id }, signal }),
  content: (tenantId: string, id: string, fallbackName: string) =>
    fetchFile(routePath(R.dbcContent, { tenant_id: tenantId, id }), { permission: R.dbcContent.permission, fallbackName }),

  strategies: (tenantId: string, q: ListQuery & { dbc_id?: string }, signal?: AbortSignal) =>
    call(R.strategies, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  strategy: (tenantId: string, id: string, signal?: AbortSignal) => call(R.strategy, { params: { tenant_id: tenantId, id }, signal }),
  createStrategy: (tenantId: string, body: RouteBody<typeof R.createStrategy>) =>
    call(R.createStrategy, { params: { tenant_id: tenantId }, body }),
  updateStrategy: (tenantId: string, id: string, body: RouteBody<typeof R.updateStrategy>) =>
    call(R.updateStrategy, { params: { tenant_id: tenantId, id }, body }),
  removeStrategy: (tenantId: string, id: string) => call(R.removeStrategy, { params: { tenant_id: tenantId, id } }),

  bindings: (tenantId: string, thingsId: string, signal?: AbortSignal) =>
    call(R.bindings, { params: { tenant_id: tenantId, things_id: thingsId }, signal }),
  bind: (tenantId: string, thingsId: string, channel: number, body: RouteBody<typeof R.bind>) =>
    call(R.bind, { params: { tenant_id: tenantId, things_id: thingsId, channel }, body }),
  /** Start or pause; a start may back-fill the channel's stored frames of a range. */
  setState: (tenantId: string, thingsId: string, channel: number, state: ParsingState, backfill?: BackfillRange) =>
    call(R.setState, { params: { tenant_id: tenantId, things_id: thingsId, channel }, body: backfill ? { state, backfill } : { state } }),
  /** The channel's newest back-fill task, or null. */
  backfill: (tenantId: string, thingsId: string, channel: number, signal?: AbortSignal) =>
    call(R.backfill, { params: { tenant_id: tenantId, things_id: thingsId, channel }, signal }),
  stopBackfill: (tenantId: string, thingsId: string, channel: number) =>
    call(R.stopBackfill, { params: { tenant_id: tenantId, things_id: thingsId, channel } }),
  unbind: (tenantId: string, thingsId: string, channel: number) =>
    call(R.unbind, { params: { tenant_id: tenantId, things_id: thingsId, channel } }),
};

/** Per-user saved choices (user-self config, spec §3 "key/value"), e.g. a device's real-time curves. */
export const userConfigApi = {
  get: async (key: string, signal?: AbortSignal): Promise<string | null> => {
    const list = await call(Routes.userConfig.get, { query: { keys: key }, signal });
    return list.find((e) => e.key === key)?.value ?? null;
  },
  put: (key: string, value: string) => call(Routes.userConfig.put, { body: { key, value } }),
};
