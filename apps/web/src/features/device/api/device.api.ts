import type { DownloadCreate, DownloadProgress, FramesPageSchema, UploadResult } from '@loggerhead/contract/schemas/data.ts';
import type { DeviceEventPageSchema, Thing, ThingStatus } from '@loggerhead/contract/schemas/things.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { uploadFile } from '../../../api/upload.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

export type FramesPage = z.infer<typeof FramesPageSchema>;
export type DeviceEventPage = z.infer<typeof DeviceEventPageSchema>;

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

const thingPath = (tenantId: string, id: string) => `/things/tenants/${encodeURIComponent(tenantId)}/things/${encodeURIComponent(id)}`;
const dataPath = (tenantId: string, id: string) => `/data-mgmt/tenants/${encodeURIComponent(tenantId)}/things/${encodeURIComponent(id)}`;

/** One device: its record, status, event log (things service) and raw data (data service). */
export const deviceApi = {
  get: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<Thing>(thingPath(tenantId, id), { signal, permission: 'things:things:queryone' }),
  status: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<ThingStatus>(`${thingPath(tenantId, id)}/status`, { signal, permission: 'things:things:queryone' }),
  events: (tenantId: string, id: string, query: EventsQuery, signal?: AbortSignal) =>
    api.get<DeviceEventPage>(`${thingPath(tenantId, id)}/events`, { signal, query: { ...query }, permission: 'things:things:queryone' }),
  regenerateKey: (tenantId: string, id: string) =>
    api.post<Thing>(`${thingPath(tenantId, id)}/key`, undefined, { permission: 'things:things:update' }),

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
