import { type RouteBody, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import type { EcuFileType } from '@loggerhead/contract/schemas/ecu.ts';
import { call } from './client.ts';

const E = Routes.ecu;
const U = Routes.uds;

export type EcuFile = RouteResponse<typeof E.upload>;
export type UdsResult = RouteResponse<typeof U.request>;
export type DtcList = RouteResponse<typeof U.readDtcs>;
export type EcuFlashJob = RouteResponse<typeof U.flash>;

/** What the UDS tab sends as transport: an ECU of the tenant or explicit addresses, plus the spec §5 settings. */
export type UdsTransportInput = RouteBody<typeof U.request>['transport'];

const UDS_TIMEOUT = 60_000;
const tenant = (tenantId: string) => ({ tenant_id: tenantId });
const device = (tenantId: string, id: string) => ({ tenant_id: tenantId, things_id: id });

/** Spec §7 CAN/DTU service: ECUs, their files, UDS requests relayed through a device and ECU flashing. */
export const ecuApi = {
  list: (tenantId: string, keyword?: string, signal?: AbortSignal) =>
    call(E.list, { params: tenant(tenantId), query: { keyword }, signal }),
  create: (tenantId: string, body: RouteBody<typeof E.create>) => call(E.create, { params: tenant(tenantId), body }),
  update: (tenantId: string, id: string, body: RouteBody<typeof E.update>) => call(E.update, { params: { tenant_id: tenantId, id }, body }),
  remove: (tenantId: string, id: string) => call(E.remove, { params: { tenant_id: tenantId, id } }),
  files: (tenantId: string, type?: EcuFileType, signal?: AbortSignal) =>
    call(E.files, { params: tenant(tenantId), query: { type }, signal }),
  upload: (tenantId: string, type: EcuFileType, file: File, name?: string) => {
    const form = new FormData();
    form.append('type', type);
    if (name) form.append('name', name);
    form.append('file', file, file.name);
    return call(E.upload, { params: tenant(tenantId), body: form, timeout: 300_000 });
  },
  removeFile: (tenantId: string, id: string) => call(E.removeFile, { params: { tenant_id: tenantId, id } }),
  faultCodes: (tenantId: string, id: string, signal?: AbortSignal) => call(E.faultCodes, { params: { tenant_id: tenantId, id }, signal }),

  request: (tenantId: string, id: string, transport: UdsTransportInput, pdu: string) =>
    call(U.request, { params: device(tenantId, id), body: { transport, pdu }, timeout: UDS_TIMEOUT }),
  readDtcs: (tenantId: string, id: string, transport: UdsTransportInput, status_mask: number) =>
    call(U.readDtcs, { params: device(tenantId, id), body: { transport, status_mask }, timeout: UDS_TIMEOUT }),
  clearDtcs: (tenantId: string, id: string, transport: UdsTransportInput) =>
    call(U.clearDtcs, { params: device(tenantId, id), body: { transport }, timeout: UDS_TIMEOUT }),
  flash: (tenantId: string, id: string, body: { transport: UdsTransportInput; address: number; firmware_file_id?: string }) =>
    call(U.flash, { params: device(tenantId, id), body, timeout: UDS_TIMEOUT }),
  flashJob: (tenantId: string, id: string, jobId: string, signal?: AbortSignal) =>
    call(U.flashJob, { params: { ...device(tenantId, id), id: jobId }, signal }),
  cancelFlash: (tenantId: string, id: string, jobId: string) => call(U.cancelFlash, { params: { ...device(tenantId, id), id: jobId } }),
};
