import { type RouteBody, type RouteResponse, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';
import { uploadFile } from '../../../api/upload.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

const D = Routes.data;

export type FramesPage = RouteResponse<typeof D.frames>;
export type DeviceEventPage = RouteResponse<typeof Routes.things.events>;

/** A history query as the screen holds it: times in ms, filters as lists. */
export interface FramesFilter {
  begin_time: number;
  end_time: number;
  channels: number[];
  ids: number[];
}

export interface EventsQuery {
  current_page: number;
  page_size: number;
  kind?: string;
}

/** One device: its record, status, event log (things service) and raw data (data service). */
export const deviceApi = {
  get: (tenantId: string, id: string, signal?: AbortSignal) =>
    call(Routes.things.get, { params: { tenant_id: tenantId, things_id: id }, signal }),
  status: (tenantId: string, id: string, signal?: AbortSignal) =>
    call(Routes.things.status, { params: { tenant_id: tenantId, things_id: id }, signal }),
  events: (tenantId: string, id: string, query: EventsQuery, signal?: AbortSignal) =>
    call(Routes.things.events, { params: { tenant_id: tenantId, things_id: id }, query: { ...query }, signal }),
  regenerateKey: (tenantId: string, id: string) => call(Routes.things.regenerateKey, { params: { tenant_id: tenantId, things_id: id } }),

  frames: (tenantId: string, id: string, f: FramesFilter, page: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(D.frames, {
      params: { tenant_id: tenantId, things_id: id },
      query: {
        begin_time: f.begin_time,
        end_time: f.end_time,
        channels: f.channels.length ? f.channels.join(',') : undefined,
        ids: f.ids.length ? f.ids.join(',') : undefined,
        ...page,
      },
      signal,
    }),
  createDownload: (tenantId: string, id: string, body: RouteBody<typeof D.createDownload>) =>
    call(D.createDownload, { params: { tenant_id: tenantId, things_id: id }, body }),
  download: (tenantId: string, id: string, taskId: string, signal?: AbortSignal) =>
    call(D.download, { params: { tenant_id: tenantId, things_id: id, id: taskId }, signal }),
  cancelDownload: (tenantId: string, id: string, taskId: string) =>
    call(D.cancelDownload, { params: { tenant_id: tenantId, things_id: id, id: taskId } }),
  /** A log file into the device's history (any format the server reads, gzip too). */
  uploadLog: (tenantId: string, id: string, file: File, onProgress: (sent: number, total: number) => void, signal: AbortSignal) =>
    uploadFile<RouteResponse<typeof D.upload>>(routePath(D.upload, { tenant_id: tenantId, things_id: id }), file, file.name, {
      permission: D.upload.permission,
      onProgress,
      signal,
    }),
  /** The tenant's export plugins (a CSV export may go through one), the first 100. */
  exportPlugins: (tenantId: string, signal?: AbortSignal) =>
    call(Routes.plugins.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 100, type: 'export' }, signal }),
  downloadFile: (tenantId: string, id: string, taskId: string, fallbackName: string) =>
    fetchFile(routePath(D.downloadFile, { tenant_id: tenantId, things_id: id, id: taskId }), {
      permission: D.downloadFile.permission,
      fallbackName,
    }),
};
