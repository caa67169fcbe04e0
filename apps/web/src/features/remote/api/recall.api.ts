import { type RouteBody, type RouteResponse, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';
import { fetchFile, saveBlob } from '../../../components/data-view/file-download.ts';

const R = Routes.recall;

export type RecallListResult = RouteResponse<typeof R.list>;
export type RecalledFile = RouteResponse<typeof R.files>[number];
export type RecallListRequest = RouteBody<typeof R.list>;

const device = (tenantId: string, id: string) => ({ tenant_id: tenantId, things_id: id });

/** Spec §4 file recall: the SD-card list (a device command), recall tasks, delete on the device, recalled files. */
export const recallApi = {
  list: (tenantId: string, id: string, body: RecallListRequest) => call(R.list, { params: device(tenantId, id), body, timeout: 110_000 }),
  listResult: (tenantId: string, id: string, corr: string, signal?: AbortSignal) =>
    call(R.listResult, { params: { ...device(tenantId, id), correlation_id: corr }, signal }),
  recall: (tenantId: string, id: string, file: { filename: string; size: number; time?: number | null }) =>
    call(R.recall, {
      params: device(tenantId, id),
      body: { filename: file.filename, size: file.size, ...(file.time != null ? { time: file.time } : {}) },
    }),
  batch: (tenantId: string, id: string, list: { filename: string; size: number }[]) =>
    call(R.batch, { params: device(tenantId, id), body: { files: list } }),
  tasks: (tenantId: string, id: string, signal?: AbortSignal) => call(R.tasks, { params: device(tenantId, id), signal }),
  task: (tenantId: string, id: string, taskId: string, signal?: AbortSignal) =>
    call(R.task, { params: { ...device(tenantId, id), id: taskId }, signal }),
  cancel: (tenantId: string, id: string, taskId: string) => call(R.cancel, { params: { ...device(tenantId, id), id: taskId } }),
  deleteOnDevice: (tenantId: string, id: string, name: string, size: number) =>
    call(R.deleteOnDevice, { params: device(tenantId, id), body: { filter: { name }, size } }),
  recalled: (tenantId: string, id: string, signal?: AbortSignal) =>
    call(R.files, { params: { tenant_id: tenantId }, query: { things_id: id }, signal }),
  download: async (name: string) => {
    const f = await fetchFile(routePath(R.download, { name }), { permission: R.download.permission, fallbackName: name });
    saveBlob(f.blob, f.name);
  },
  removeRecalled: (tenantId: string, name: string) => call(R.remove, { params: { tenant_id: tenantId }, query: { name, type: 'dev' } }),
  importToHistory: (tenantId: string, name: string) =>
    call(R.importToHistory, { params: { tenant_id: tenantId }, body: { name }, timeout: 120_000 }),
  package: (tenantId: string, signal?: AbortSignal) => call(Routes.billing.tenantPackage, { params: { tenant_id: tenantId }, signal }),
};
