import type {
  Backfill,
  BackfillRange,
  ChannelBind,
  ChannelBinding,
  DbcFile,
  DbcFilePageSchema,
  DbcMessageInfo,
  ParsingState,
  Strategy,
  StrategyCreate,
  StrategyPageSchema,
  StrategyUpdate,
} from '@loggerhead/contract/schemas/dbc.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

export type DbcFilePage = z.infer<typeof DbcFilePageSchema>;
export type StrategyPage = z.infer<typeof StrategyPageSchema>;

export interface ListQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

const mapping = (tenantId: string) => `/mapping-mgmt/tenants/${encodeURIComponent(tenantId)}`;
const one = (tenantId: string, kind: 'dbc-files' | 'signal-strategies', id: string) =>
  `${mapping(tenantId)}/${kind}/${encodeURIComponent(id)}`;
const bindingPath = (tenantId: string, thingsId: string, channel: number) =>
  `${mapping(tenantId)}/things/${encodeURIComponent(thingsId)}/channels/${channel}/dbc-binding`;

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
    api.get<DbcFilePage>(`${mapping(tenantId)}/dbc-files`, { signal, query: { ...q }, permission: 'mapping:dbc:query' }),
  get: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<DbcFile>(one(tenantId, 'dbc-files', id), { signal, permission: 'mapping:dbc:query' }),
  upload: (tenantId: string, file: File, fields: { name?: string; protocol?: number }) =>
    api.post<DbcFile>(`${mapping(tenantId)}/dbc-files`, dbcForm(file, fields), { permission: 'mapping:dbc:create' }),
  /** Replaces the file and/or changes name and protocol. */
  update: (tenantId: string, id: string, file: File | null, fields: { name?: string; protocol?: number }) =>
    api.put<DbcFile>(one(tenantId, 'dbc-files', id), dbcForm(file, fields), { permission: 'mapping:dbc:update' }),
  remove: (tenantId: string, id: string) => api.delete<void>(one(tenantId, 'dbc-files', id), { permission: 'mapping:dbc:delete' }),
  messages: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<DbcMessageInfo[]>(`${one(tenantId, 'dbc-files', id)}/messages`, { signal, permission: 'mapping:dbc:query' }),
  content: (tenantId: string, id: string, fallbackName: string) =>
    fetchFile(`${one(tenantId, 'dbc-files', id)}/content`, { permission: 'mapping:dbc:query', fallbackName }),

  strategies: (tenantId: string, q: ListQuery & { dbc_id?: string }, signal?: AbortSignal) =>
    api.get<StrategyPage>(`${mapping(tenantId)}/signal-strategies`, { signal, query: { ...q }, permission: 'mapping:dbc:query' }),
  strategy: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<Strategy>(one(tenantId, 'signal-strategies', id), { signal, permission: 'mapping:dbc:query' }),
  createStrategy: (tenantId: string, body: StrategyCreate) =>
    api.post<Strategy>(`${mapping(tenantId)}/signal-strategies`, body, { permission: 'mapping:dbc:create' }),
  updateStrategy: (tenantId: string, id: string, body: StrategyUpdate) =>
    api.put<Strategy>(one(tenantId, 'signal-strategies', id), body, { permission: 'mapping:dbc:update' }),
  removeStrategy: (tenantId: string, id: string) =>
    api.delete<void>(one(tenantId, 'signal-strategies', id), { permission: 'mapping:dbc:delete' }),

  bindings: (tenantId: string, thingsId: string, signal?: AbortSignal) =>
    api.get<ChannelBinding[]>(`${mapping(tenantId)}/things/${encodeURIComponent(thingsId)}/dbc-bindings`, {
      signal,
      permission: 'mapping:dbc:query',
    }),
  bind: (tenantId: string, thingsId: string, channel: number, body: ChannelBind) =>
    api.put<ChannelBinding>(bindingPath(tenantId, thingsId, channel), body, { permission: 'mapping:dbc:bind' }),
  /** Start or pause; a start may back-fill the channel's stored frames of a range. */
  setState: (tenantId: string, thingsId: string, channel: number, state: ParsingState, backfill?: BackfillRange) =>
    api.put<ChannelBinding>(`${bindingPath(tenantId, thingsId, channel)}/state`, backfill ? { state, backfill } : { state }, {
      permission: 'mapping:dbc:updateStatus',
    }),
  /** The channel's newest back-fill task, or null. */
  backfill: (tenantId: string, thingsId: string, channel: number, signal?: AbortSignal) =>
    api.get<Backfill | null>(`${bindingPath(tenantId, thingsId, channel)}/backfill`, { signal, permission: 'mapping:dbc:query' }),
  stopBackfill: (tenantId: string, thingsId: string, channel: number) =>
    api.delete<void>(`${bindingPath(tenantId, thingsId, channel)}/backfill`, { permission: 'mapping:dbc:updateStatus' }),
  unbind: (tenantId: string, thingsId: string, channel: number) =>
    api.delete<void>(bindingPath(tenantId, thingsId, channel), { permission: 'mapping:dbc:unbind' }),
};

/** Per-user saved choices (user-self config, spec §3 "key/value"), e.g. a device's real-time curves. */
export const userConfigApi = {
  get: async (key: string, signal?: AbortSignal): Promise<string | null> => {
    const list = await api.get<{ key: string; value: string }[]>('/tenant/users/self/configs', { signal, query: { keys: key } });
    return list.find((e) => e.key === key)?.value ?? null;
  },
  put: (key: string, value: string) => api.put<{ key: string; value: string }>('/tenant/users/self/configs', { key, value }),
};
