import type { Firmware, FirmwarePageSchema, Upgrade, UpgradeNotifyResultSchema } from '@loggerhead/contract/schemas/firmware.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';

export type FirmwarePage = z.infer<typeof FirmwarePageSchema>;
export type NotifyResult = z.infer<typeof UpgradeNotifyResultSchema>;
export interface FirmwareUpload {
  version: string;
  model_id: string;
  description?: string;
  type: 'self' | 'outer';
  file: File;
}

const base = (tenantId: string) => `/out-firmware-mgmt/tenants/${encodeURIComponent(tenantId)}`;

/** Spec §7 firmware management and upgrade notify; the device's upgrades with their live state. */
export const firmwareApi = {
  list: (tenantId: string, q: { current_page: number; page_size: number; model_id?: string; type?: string }, signal?: AbortSignal) =>
    api.get<FirmwarePage>(`${base(tenantId)}/firmwares`, { signal, query: { ...q }, permission: 'firmware:firmware:query' }),
  upload: (tenantId: string, u: FirmwareUpload) => {
    const form = new FormData();
    form.append('version', u.version);
    form.append('model_id', u.model_id);
    form.append('type', u.type);
    if (u.description) form.append('description', u.description);
    form.append('file', u.file, u.file.name);
    return api.post<Firmware>(`${base(tenantId)}/firmwares`, form, { permission: 'firmware:firmware:upload', timeout: 300_000 });
  },
  remove: (tenantId: string, id: string) =>
    api.delete<void>(`${base(tenantId)}/firmwares/${encodeURIComponent(id)}`, { permission: 'firmware:firmware:delete' }),
  setPublic: (tenantId: string, id: string, toPublic: boolean) =>
    api.put<Firmware>(`${base(tenantId)}/firmwares/${encodeURIComponent(id)}/${toPublic}`, undefined, {
      permission: 'firmware:firmware:public',
    }),
  notify: (tenantId: string, f: Pick<Firmware, 'model_id' | 'version' | 'type'>, thingId: string, at?: number) =>
    api.post<NotifyResult>(
      `${base(tenantId)}/firmwares/${encodeURIComponent(f.model_id)}/${encodeURIComponent(f.version)}/notify`,
      { things_ids: [thingId], type: f.type, ...(at ? { at } : {}) },
      { permission: 'firmware:firmware:notify-upgrade' },
    ),
  upgrades: (tenantId: string, thingId: string, signal?: AbortSignal) =>
    api.get<Upgrade[]>(`${base(tenantId)}/things/${encodeURIComponent(thingId)}/upgrades`, {
      signal,
      permission: 'things:things:queryone',
    }),
  cancel: (tenantId: string, thingId: string, id: string) =>
    api.post<Upgrade>(`${base(tenantId)}/things/${encodeURIComponent(thingId)}/upgrades/${encodeURIComponent(id)}/cancel`, undefined, {
      permission: 'firmware:firmware:notify-upgrade',
    }),
};
