import { type RouteBody, type RouteQuery, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const R = Routes.command;

export type CommandPage = RouteResponse<typeof R.page>;
export type CommandListQuery = NonNullable<RouteQuery<typeof R.page>>;

const device = (tenantId: string, id: string) => ({ tenant_id: tenantId, things_id: id });

/** Spec §7 device messages: issue a command, list them, cancel a queued one. */
export const commandApi = {
  issue: (tenantId: string, id: string, body: RouteBody<typeof R.issue>) => call(R.issue, { params: device(tenantId, id), body }),
  page: (tenantId: string, id: string, q: CommandListQuery, signal?: AbortSignal) =>
    call(R.page, { params: device(tenantId, id), query: { ...q }, signal }),
  get: (tenantId: string, id: string, correlationId: string, signal?: AbortSignal) =>
    call(R.get, { params: { ...device(tenantId, id), correlation_id: correlationId }, signal }),
  cancel: (tenantId: string, id: string, correlationId: string) =>
    call(R.cancel, { params: { ...device(tenantId, id), correlation_id: correlationId } }),
};
