import type { TenantPackage } from '@loggerhead/contract/schemas/billing.ts';
import type { Command } from '@loggerhead/contract/schemas/command.ts';
import type { RecalledFileSchema, RecallListResultSchema, RecallTask } from '@loggerhead/contract/schemas/recall.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { fetchFile, saveBlob } from '../../../components/data-view/file-download.ts';
import { thingPath } from './command.api.ts';

export type RecallListResult = z.infer<typeof RecallListResultSchema>;
export type RecalledFile = z.infer<typeof RecalledFileSchema>;
export interface RecallListRequest {
  current_page: number;
  page_size: number;
  filter: { starttime?: number; endtime?: number };
}

const recallPath = (tenantId: string, id: string) => `${thingPath(tenantId, id)}/recall`;
const files = (tenantId: string) => `/filemanager/tenants/${encodeURIComponent(tenantId)}/files`;

/** Spec §4 file recall: the SD-card list (a device command), recall tasks, delete on the device, recalled files. */
export const recallApi = {
  list: (tenantId: string, id: string, body: RecallListRequest) =>
    api.post<RecallListResult>(`${recallPath(tenantId, id)}/list`, body, { permission: 'things:things:command', timeout: 110_000 }),
  listResult: (tenantId: string, id: string, corr: string, signal?: AbortSignal) =>
    api.get<RecallListResult>(`${recallPath(tenantId, id)}/list/${encodeURIComponent(corr)}`, {
      signal,
      permission: 'things:message:query',
    }),
  recall: (tenantId: string, id: string, file: { filename: string; size: number; time?: number | null }) =>
    api.post<RecallTask>(
      `${recallPath(tenantId, id)}/files`,
      { filename: file.filename, size: file.size, ...(file.time != null ? { time: file.time } : {}) },
      { permission: 'things:things:command' },
    ),
  batch: (tenantId: string, id: string, list: { filename: string; size: number }[]) =>
    api.post<{ batch_id: string; tasks: RecallTask[] }>(
      `${recallPath(tenantId, id)}/batch`,
      { files: list },
      { permission: 'things:things:command' },
    ),
  tasks: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<RecallTask[]>(`${recallPath(tenantId, id)}/tasks`, { signal, permission: 'things:message:query' }),
  task: (tenantId: string, id: string, taskId: string, signal?: AbortSignal) =>
    api.get<RecallTask>(`${recallPath(tenantId, id)}/tasks/${encodeURIComponent(taskId)}`, { signal, permission: 'things:message:query' }),
  cancel: (tenantId: string, id: string, taskId: string) =>
    api.post<RecallTask>(`${recallPath(tenantId, id)}/tasks/${encodeURIComponent(taskId)}/cancel`, undefined, {
      permission: 'things:things:command',
    }),
  deleteOnDevice: (tenantId: string, id: string, name: string, size: number) =>
    api.post<Command>(
      `${recallPath(tenantId, id)}/device-files/delete`,
      { filter: { name }, size },
      { permission: 'things:things:command' },
    ),
  recalled: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<RecalledFile[]>(files(tenantId), { signal, query: { things_id: id }, permission: 'things:things:query' }),
  download: async (name: string) => {
    const f = await fetchFile(`/filemanager/upload/commonfile/${encodeURIComponent(name)}`, {
      permission: 'data-mgmt:things-data:download',
      fallbackName: name,
    });
    saveBlob(f.blob, f.name);
  },
  removeRecalled: (tenantId: string, name: string) =>
    api.delete<void>(files(tenantId), { query: { name, type: 'dev' }, permission: 'data-mgmt:things-data:delete' }),
  importToHistory: (tenantId: string, name: string) =>
    api.post<unknown>(`${files(tenantId)}/import`, { name }, { permission: 'data-mgmt:things-data:import', timeout: 120_000 }),
  package: (tenantId: string, signal?: AbortSignal) =>
    api.get<TenantPackage>(`/billing/tenants/${encodeURIComponent(tenantId)}/package`, { signal }),
};
