import { type RouteBody, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

const R = Routes.dataService;
const D = Routes.data;
/** A run's exports are polled every second, as the device's export dialog does. */
export const DOWNLOAD_POLL_MS = 1_000;
export type TemplateBody = RouteBody<typeof R.createTemplate>;
export type CleanTaskBody = RouteBody<typeof R.createCleanTask>;
export interface ListQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

/** Download templates and clean tasks (spec §7 /data-mgmt, decision 0161). */
export const dataServiceApi = {
  templates: (tenantId: string, q: ListQuery, signal?: AbortSignal) =>
    call(R.templates, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  createTemplate: (tenantId: string, body: TemplateBody) => call(R.createTemplate, { params: { tenant_id: tenantId }, body }),
  updateTemplate: (tenantId: string, id: string, body: TemplateBody) =>
    call(R.updateTemplate, { params: { tenant_id: tenantId, id }, body }),
  removeTemplate: (tenantId: string, id: string) => call(R.removeTemplate, { params: { tenant_id: tenantId, id } }),
  /** Starts the template's export on each of its devices; answers one export per device. */
  runTemplate: (tenantId: string, id: string) => call(R.runTemplate, { params: { tenant_id: tenantId, id }, body: {} }),

  cleanTasks: (tenantId: string, q: ListQuery, signal?: AbortSignal) =>
    call(R.cleanTasks, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  createCleanTask: (tenantId: string, body: CleanTaskBody) => call(R.createCleanTask, { params: { tenant_id: tenantId }, body }),
  updateCleanTask: (tenantId: string, id: string, body: CleanTaskBody) =>
    call(R.updateCleanTask, { params: { tenant_id: tenantId, id }, body }),
  setCleanTaskStatus: (tenantId: string, id: string, status: 0 | 1) =>
    call(R.setCleanTaskStatus, { params: { tenant_id: tenantId, id, status } }),
  removeCleanTask: (tenantId: string, id: string) => call(R.removeCleanTask, { params: { tenant_id: tenantId, id } }),
  runCleanTask: (tenantId: string, id: string) => call(R.runCleanTask, { params: { tenant_id: tenantId, id } }),

  /** A run's export on one device: its progress and, when done, its file (the device's export routes). */
  exportProgress: (tenantId: string, thingsId: string, id: string, signal?: AbortSignal) =>
    call(D.download, { params: { tenant_id: tenantId, things_id: thingsId, id }, signal }),
  exportFile: (tenantId: string, thingsId: string, id: string, fallbackName: string) =>
    fetchFile(routePath(D.downloadFile, { tenant_id: tenantId, things_id: thingsId, id }), {
      permission: D.downloadFile.permission,
      fallbackName,
    }),

  /** The device picker: the tenant's first 200 devices matching a keyword. */
  devices: (tenantId: string, keyword: string | undefined, signal?: AbortSignal) =>
    call(Routes.things.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 200, keyword }, signal }),
};

export const dataServiceKeys = {
  templates: ['download-templates'] as const,
  cleanTasks: ['clean-tasks'] as const,
  devices: (tenantId: string | null, keyword?: string) => ['data-service', 'devices', tenantId, keyword] as const,
  export: (tenantId: string, thingsId: string, id: string) => ['data-service', 'export', tenantId, thingsId, id] as const,
};

export const templateListQuery = (tenantId: string | null, q: ListQuery) =>
  queryOptions({
    queryKey: [...dataServiceKeys.templates, tenantId, q],
    queryFn: ({ signal }) => dataServiceApi.templates(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const cleanTaskListQuery = (tenantId: string | null, q: ListQuery) =>
  queryOptions({
    queryKey: [...dataServiceKeys.cleanTasks, tenantId, q],
    queryFn: ({ signal }) => dataServiceApi.cleanTasks(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });
