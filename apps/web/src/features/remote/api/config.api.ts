import { type RouteBody, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const R = Routes.config;

export type ConfigResult = RouteResponse<typeof R.read>;
export type ConfigState = RouteResponse<typeof R.last>;

const device = (tenantId: string, id: string) => ({ tenant_id: tenantId, things_id: id });

/** Device configuration: last known (server), read from / write to the logger (a command each). */
export const configApi = {
  last: (tenantId: string, id: string, signal?: AbortSignal) => call(R.last, { params: device(tenantId, id), signal }),
  read: (tenantId: string, id: string) => call(R.read, { params: device(tenantId, id), timeout: 40_000 }),
  write: (tenantId: string, id: string, config: RouteBody<typeof R.write>) =>
    call(R.write, { params: device(tenantId, id), body: config, timeout: 40_000 }),
};
