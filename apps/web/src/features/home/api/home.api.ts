import type { DeviceType, Thing, ThingImportResultSchema, ThingPageSchema } from '@loggerhead/contract/schemas/things.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

export type ThingPage = z.infer<typeof ThingPageSchema>;
export type ThingImportResult = z.infer<typeof ThingImportResultSchema>;

export interface DeviceFilters {
  keyword?: string;
  info_model_id?: string;
  is_online?: '1' | '0';
  collected?: '1';
}

export interface DeviceListQuery extends DeviceFilters {
  current_page: number;
  page_size: number;
}

export interface NewDevice {
  third_things_id: string;
  name: string;
  info_model_id: string;
  description?: string | null;
}

const base = (tenantId: string) => `/things/tenants/${encodeURIComponent(tenantId)}`;
const thing = (tenantId: string, id: string) => `${base(tenantId)}/things/${encodeURIComponent(id)}`;

/** Devices of the home page (spec §7 things service). */
export const homeApi = {
  list: (tenantId: string, query: DeviceListQuery, signal?: AbortSignal) =>
    api.get<ThingPage>(`${base(tenantId)}/things`, { signal, query: { ...query }, permission: 'things:things:page' }),
  types: (tenantId: string, signal?: AbortSignal) =>
    api.get<DeviceType[]>(`${base(tenantId)}/device-types`, { signal, permission: 'things:info-model:query' }),
  create: (tenantId: string, body: NewDevice) => api.post<Thing>(`${base(tenantId)}/things`, body, { permission: 'things:things:create' }),
  remove: (tenantId: string, id: string) => api.delete<void>(thing(tenantId, id), { permission: 'things:things:delete' }),
  setCollected: (tenantId: string, id: string, collected: boolean) =>
    api.put<Thing>(`${thing(tenantId, id)}/collected`, { collected }, { permission: 'things:things:query' }),
  regenerateKey: (tenantId: string, id: string) =>
    api.post<Thing>(`${thing(tenantId, id)}/key`, undefined, { permission: 'things:things:update' }),
  importCsv: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<ThingImportResult>(`${base(tenantId)}/things/import`, form, { permission: 'things:things:import' });
  },
  exportCsv: (tenantId: string, filters: DeviceFilters) =>
    fetchFile(`${base(tenantId)}/things/export`, { query: { ...filters }, permission: 'things:things:export' }),
};
