import { type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import type { DownloadCreate, DownloadProgress, FramesPageSchema, UploadResult } from '@loggerhead/contract/schemas/data.ts';
import type { z } from 'zod';
import { api, call } from '../../../api/client.ts';
import { uploadFile } from '../../../api/upload.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

export type FramesPage = z.infer<typeof FramesPageSchema>;
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

const dataPath = (tenantId: string, id: string) => `/data-mgmt/tenants/${encodeURIComponent(tenantId)}/things/${encodeURIComponent(id)}`;

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
    api.get<FramesPage>(`${dataPath(tenantId, id)}/frames`, {
      signal,
      permission: 'data-mgmt:things-data:query',
      query: {
        begin_time: f.begin_time,
        end_time: f.end_time,
        channels: f.channels.length ? f.channels.join(',') : undefined,
        ids: f.ids.length ? f.ids.join(',') : undefined,
        ...page,
      },
    }),
  createDownload: (tenantId: string, id: string, body: DownloadCreate) =>
    api.post<{ id: string }>(`${dataPath(tenantId, id)}/downloads`, body, { permission: 'data-mgmt:things-data:download' }),
  download: (tenantId: string, id: string, taskId: string, signal?: AbortSignal) =>
    api.get<DownloadProgress>(`${dataPath(tenantId, id)}/downloads/${encodeURIComponent(taskId)}`, {
      signal,
      permission: 'data-mgmt:things-data:download',
    }),
  cancelDownload: (tenantId: string, id: string, taskId: string) =>
    api.delete<void>(`${dataPath(tenantId, id)}/downloads/${encodeURIComponent(taskId)}`, { permission: 'data-mgmt:things-data:download' }),
  /** A log file into the device's history (any format the server reads, gzip too). */
  uploadLog: (tenantId: string, id: string, file: File, onProgress: (sent: number, total: number) => void, signal: AbortSignal) =>
    uploadFile<UploadResult>(`${dataPath(tenantId, id)}/uploads`, file, file.name, {
      permission: 'data-mgmt:things-data:import',
      onProgress,
      signal,
    }),
  downloadFile: (tenantId: string, id: string, taskId: string, fallbackName: string) =>
    fetchFile(`${dataPath(tenantId, id)}/downloads/${encodeURIComponent(taskId)}/file`, {
      permission: 'data-mgmt:things-data:download',
      fallbackName,
    }),
};
