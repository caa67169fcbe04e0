import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import type {
  DataField,
  DataFieldInput,
  DataGroup,
  DataGroupInput,
  DeviceTypeDataSchema,
} from '@loggerhead/contract/schemas/device-type-schema.ts';
import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../api/client.ts';

export type DeviceTypeInput = RouteBody<typeof Routes.things.createType>;

const types = (tenantId: string) => `/things/tenants/${encodeURIComponent(tenantId)}/device-types`;
const schema = (tenantId: string, typeId: string) => `${types(tenantId)}/${encodeURIComponent(typeId)}/schema`;
const Q = 'things:info-model:query';
const U = 'things:info-model:update';

/** Device types (things service) and their data groups and fields. */
export const deviceTypeApi = {
  list: (tenantId: string, signal?: AbortSignal) => call(Routes.things.types, { params: { tenant_id: tenantId }, signal }),
  create: (tenantId: string, body: DeviceTypeInput) => call(Routes.things.createType, { params: { tenant_id: tenantId }, body }),
  schema: (tenantId: string, typeId: string, signal?: AbortSignal) =>
    api.get<DeviceTypeDataSchema>(schema(tenantId, typeId), { signal, permission: Q }),
  createGroup: (tenantId: string, typeId: string, body: DataGroupInput) =>
    api.post<DataGroup>(`${schema(tenantId, typeId)}/groups`, body, { permission: U }),
  updateGroup: (tenantId: string, typeId: string, groupId: string, body: Partial<DataGroupInput>) =>
    api.put<DataGroup>(`${schema(tenantId, typeId)}/groups/${encodeURIComponent(groupId)}`, body, { permission: U }),
  deleteGroup: (tenantId: string, typeId: string, groupId: string) =>
    api.delete<void>(`${schema(tenantId, typeId)}/groups/${encodeURIComponent(groupId)}`, { permission: U }),
  createField: (tenantId: string, typeId: string, groupId: string, body: DataFieldInput) =>
    api.post<DataField>(`${schema(tenantId, typeId)}/groups/${encodeURIComponent(groupId)}/fields`, body, { permission: U }),
  updateField: (tenantId: string, typeId: string, groupId: string, fieldId: string, body: Partial<DataFieldInput>) =>
    api.put<DataField>(`${schema(tenantId, typeId)}/groups/${encodeURIComponent(groupId)}/fields/${encodeURIComponent(fieldId)}`, body, {
      permission: U,
    }),
  deleteField: (tenantId: string, typeId: string, groupId: string, fieldId: string) =>
    api.delete<void>(`${schema(tenantId, typeId)}/groups/${encodeURIComponent(groupId)}/fields/${encodeURIComponent(fieldId)}`, {
      permission: U,
    }),
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
