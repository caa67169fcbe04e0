import { type RouteBody, type RouteQuery, type RouteResponse, routePath } from '@loggerhead/contract/routes/define.ts';
import { ThingsRoutes } from '@loggerhead/contract/routes/things.ts';
import type { ThingLabel } from '@loggerhead/contract/schemas/things.ts';
import { fetchFile } from '../components/data-view/file-download.ts';
import { call } from './client.ts';

const R = ThingsRoutes;

export type ThingPage = RouteResponse<typeof R.list>;
export type ThingImportResult = RouteResponse<typeof R.import>;
/** The filters of the home page's device list (a part of the list's query). */
export type DeviceFilters = Pick<
  NonNullable<RouteQuery<typeof R.list>>,
  'keyword' | 'info_model_id' | 'is_online' | 'collected' | 'label' | 'label_value' | 'group_id'
>;
export type DeviceListQuery = DeviceFilters & { current_page: number; page_size: number };
export type NewDevice = RouteBody<typeof R.create>;

/** The tenant's devices (spec §7 things service): the home page lists and edits them, the dashboard picks one. */
export const thingsApi = {
  list: (tenantId: string, query: DeviceListQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...query }, signal }),
  types: (tenantId: string, signal?: AbortSignal) => call(R.types, { params: { tenant_id: tenantId }, signal }),
  create: (tenantId: string, body: NewDevice) => call(R.create, { params: { tenant_id: tenantId }, body }),
  /** Device labels refer to the tenant's label registry. */
  setLabels: (tenantId: string, id: string, labels: ThingLabel[]) =>
    call(R.update, { params: { tenant_id: tenantId, things_id: id }, body: { labels } }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenant_id: tenantId, things_id: id } }),
  setCollected: (tenantId: string, id: string, collected: boolean) =>
    call(R.setCollected, { params: { tenant_id: tenantId, things_id: id }, body: { collected } }),
  regenerateKey: (tenantId: string, id: string) => call(R.regenerateKey, { params: { tenant_id: tenantId, things_id: id } }),
  importCsv: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return call(R.import, { params: { tenant_id: tenantId }, body: form });
  },
  exportCsv: (tenantId: string, filters: DeviceFilters) =>
    fetchFile(routePath(R.export, { tenant_id: tenantId }), { query: { ...filters }, permission: R.export.permission }),
};
