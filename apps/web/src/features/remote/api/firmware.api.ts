import { type RouteQuery, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import type { Firmware } from '@loggerhead/contract/schemas/firmware.ts';
import { call } from '../../../api/client.ts';

const R = Routes.firmware;

export type FirmwarePage = RouteResponse<typeof R.list>;
export type NotifyResult = RouteResponse<typeof R.notify>;
export interface FirmwareUpload {
  version: string;
  model_id: string;
  description?: string;
  type: 'self' | 'outer';
  file: File;
}

/** Spec §7 firmware management and upgrade notify; the device's upgrades with their live state. */
export const firmwareApi = {
  list: (tenantId: string, q: NonNullable<RouteQuery<typeof R.list>>, signal?: AbortSignal) =>
    call(R.list, { params: { tenantId }, query: q, signal }),
  upload: (tenantId: string, u: FirmwareUpload) => {
    const form = new FormData();
    form.append('version', u.version);
    form.append('model_id', u.model_id);
    form.append('type', u.type);
    if (u.description) form.append('description', u.description);
    form.append('file', u.file, u.file.name);
    return call(R.upload, { params: { tenantId }, body: form, timeout: 300_000 });
  },
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenantId, id } }),
  setPublic: (tenantId: string, id: string, toPublic: boolean) =>
    call(R.setPublic, { params: { tenantId, id, toPublic: toPublic ? 'true' : 'false' } }),
  notify: (tenantId: string, f: Pick<Firmware, 'model_id' | 'version' | 'type'>, thingId: string, at?: number) =>
    call(R.notify, {
      params: { tenantId, model_id: f.model_id, version: f.version },
      body: { things_ids: [thingId], type: f.type, ...(at ? { at } : {}) },
    }),
  upgrades: (tenantId: string, thingId: string, signal?: AbortSignal) =>
    call(R.upgrades, { params: { tenantId, things_id: thingId }, signal }),
  cancel: (tenantId: string, thingId: string, id: string) => call(R.cancelUpgrade, { params: { tenantId, things_id: thingId, id } }),
};
