import type { Ecu, EcuCreate, EcuFileSchema, EcuFileType, FaultCode } from '@loggerhead/contract/schemas/ecu.ts';
import type { DtcListSchema, EcuFlashJobSchema, UdsResultSchema } from '@loggerhead/contract/schemas/uds.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';

export type EcuFile = z.infer<typeof EcuFileSchema>;
export type UdsResult = z.infer<typeof UdsResultSchema>;
export type DtcList = z.infer<typeof DtcListSchema>;
export type EcuFlashJob = z.infer<typeof EcuFlashJobSchema>;

/** What the UDS tab sends as transport: an ECU of the tenant or explicit addresses, plus the spec §5 settings. */
export interface UdsTransportInput {
  channel: number;
  ecu_id?: string;
  request_address?: number;
  response_address?: number;
  frame_type?: 'standard' | 'extended';
  fd: boolean;
  fill_byte: number;
  st_min: number;
  flow_control_timeout_ms: number;
  timeout_ms: number;
  enhanced_timeout_ms: number;
}

const base = (tenantId: string) => `/single-candtu/tenants/${encodeURIComponent(tenantId)}`;
const thing = (tenantId: string, id: string) => `${base(tenantId)}/things/${encodeURIComponent(id)}`;
const UDS_TIMEOUT = 60_000;

/** Spec §7 CAN/DTU service: ECUs, their files, UDS requests relayed through a device and ECU flashing. */
export const ecuApi = {
  list: (tenantId: string, keyword?: string, signal?: AbortSignal) =>
    api.get<Ecu[]>(`${base(tenantId)}/ecus`, { signal, query: { keyword }, permission: 'candtu:ecu:query' }),
  create: (tenantId: string, body: EcuCreate) => api.post<Ecu>(`${base(tenantId)}/ecus`, body, { permission: 'candtu:ecu:create' }),
  update: (tenantId: string, id: string, body: Partial<EcuCreate>) =>
    api.put<Ecu>(`${base(tenantId)}/ecus/${encodeURIComponent(id)}`, body, { permission: 'candtu:ecu:update' }),
  remove: (tenantId: string, id: string) =>
    api.delete<void>(`${base(tenantId)}/ecus/${encodeURIComponent(id)}`, { permission: 'candtu:ecu:delete' }),
  files: (tenantId: string, type?: EcuFileType, signal?: AbortSignal) =>
    api.get<EcuFile[]>(`${base(tenantId)}/files`, { signal, query: { type }, permission: 'candtu:dtc:query' }),
  upload: (tenantId: string, type: EcuFileType, file: File, name?: string) => {
    const form = new FormData();
    form.append('type', type);
    if (name) form.append('name', name);
    form.append('file', file, file.name);
    return api.post<EcuFile>(`${base(tenantId)}/files`, form, { permission: 'candtu:dtc:create', timeout: 300_000 });
  },
  removeFile: (tenantId: string, id: string) =>
    api.delete<void>(`${base(tenantId)}/files/${encodeURIComponent(id)}`, { permission: 'candtu:dtc:delete' }),
  faultCodes: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<FaultCode[]>(`${base(tenantId)}/files/${encodeURIComponent(id)}/fault-codes`, { signal, permission: 'candtu:dtc:query' }),

  request: (tenantId: string, id: string, transport: UdsTransportInput, pdu: string) =>
    api.post<UdsResult>(
      `${thing(tenantId, id)}/uds/request`,
      { transport, pdu },
      { permission: 'candtu:uds:execute', timeout: UDS_TIMEOUT },
    ),
  readDtcs: (tenantId: string, id: string, transport: UdsTransportInput, status_mask: number) =>
    api.post<DtcList>(
      `${thing(tenantId, id)}/uds/dtcs/read`,
      { transport, status_mask },
      { permission: 'candtu:uds:execute', timeout: UDS_TIMEOUT },
    ),
  clearDtcs: (tenantId: string, id: string, transport: UdsTransportInput) =>
    api.post<unknown>(`${thing(tenantId, id)}/uds/dtcs/clear`, { transport }, { permission: 'candtu:uds:execute', timeout: UDS_TIMEOUT }),
  flash: (tenantId: string, id: string, body: { transport: UdsTransportInput; address: number; firmware_file_id?: string }) =>
    api.post<EcuFlashJob>(`${thing(tenantId, id)}/ecu-upgrade`, body, { permission: 'candtu:ecu:upgrade', timeout: UDS_TIMEOUT }),
  flashJob: (tenantId: string, id: string, jobId: string, signal?: AbortSignal) =>
    api.get<EcuFlashJob>(`${thing(tenantId, id)}/ecu-upgrade/${encodeURIComponent(jobId)}`, { signal, permission: 'candtu:ecu:query' }),
  cancelFlash: (tenantId: string, id: string, jobId: string) =>
    api.post<EcuFlashJob>(`${thing(tenantId, id)}/ecu-upgrade/${encodeURIComponent(jobId)}/cancel`, undefined, {
      permission: 'candtu:ecu:upgrade',
    }),
};
