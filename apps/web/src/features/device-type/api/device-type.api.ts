import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

export type DeviceTypeInput = RouteBody<typeof Routes.things.createType>;

const S = Routes.deviceTypeSchema;
const type = (tenantId: string, typeId: string) => ({ tenant_id: tenantId, id: typeId });
const group = (tenantId: string, typeId: string, groupId: string) => ({ ...type(tenantId, typeId), group_id: groupId });

/** Device types (things service) and their data groups and fields. */
export const deviceTypeApi = {
  list: (tenantId: string, signal?: AbortSignal) => call(Routes.things.types, { params: { tenant_id: tenantId }, signal }),
  create: (tenantId: string, body: DeviceTypeInput) => call(Routes.things.createType, { params: { tenant_id: tenantId }, body }),
  schema: (tenantId: string, typeId: string, signal?: AbortSignal) => call(S.get, { params: type(tenantId, typeId), signal }),
  createGroup: (tenantId: string, typeId: string, body: RouteBody<typeof S.createGroup>) =>
    call(S.createGroup, { params: type(tenantId, typeId), body }),
  updateGroup: (tenantId: string, typeId: string, groupId: string, body: RouteBody<typeof S.updateGroup>) =>
    call(S.updateGroup, { params: group(tenantId, typeId, groupId), body }),
  deleteGroup: (tenantId: string, typeId: string, groupId: string) => call(S.deleteGroup, { params: group(tenantId, typeId, groupId) }),
  createField: (tenantId: string, typeId: string, groupId: string, body: RouteBody<typeof S.createField>) =>
    call(S.createField, { params: group(tenantId, typeId, groupId), body }),
  updateField: (tenantId: string, typeId: string, groupId: string, fieldId: string, body: RouteBody<typeof S.updateField>) =>
    call(S.updateField, { params: { ...group(tenantId, typeId, groupId), field_id: fieldId }, body }),
  deleteField: (tenantId: string, typeId: string, groupId: string, fieldId: string) =>
    call(S.deleteField, { params: { ...group(tenantId, typeId, groupId), field_id: fieldId } }),
};

export const deviceTypeKeys = {
  all: ['device-type'] as const,
  list: (tenantId: string | null) => [...deviceTypeKeys.all, 'list', tenantId] as const,
  schema: (tenantId: string | null, typeId: string) => [...deviceTypeKeys.all, 'schema', tenantId, typeId] as const,
};

export const deviceTypesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: deviceTypeKeys.list(tenantId),
    queryFn: ({ signal }) => deviceTypeApi.list(tenantId as string, signal),
    enabled: Boolean(tenantId),
  });

export const dataSchemaQuery = (tenantId: string | null, typeId: string) =>
  queryOptions({
    queryKey: deviceTypeKeys.schema(tenantId, typeId),
    queryFn: ({ signal }) => deviceTypeApi.schema(tenantId as string, typeId, signal),
    enabled: Boolean(tenantId && typeId),
    meta: { silent: true },
  });
