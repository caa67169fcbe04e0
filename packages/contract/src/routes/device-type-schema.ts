import { UuidSchema } from '../schemas/common.ts';
import {
  DataFieldInputSchema,
  DataFieldSchema,
  DataFieldUpdateSchema,
  DataGroupInputSchema,
  DataGroupSchema,
  DataGroupUpdateSchema,
  DeviceTypeDataSchemaSchema,
} from '../schemas/device-type-schema.ts';
import { defineRoute, TenantIdParams } from './define.ts';

const base = '/things/tenants/:tenant_id/device-types/:id/schema';
/** A data group of a device type (`:id`). */
const GroupParams = TenantIdParams.extend({ group_id: UuidSchema });
const FieldParams = GroupParams.extend({ field_id: UuidSchema });

/** The data groups and fields of a device type (DeviceTypeDetails). */
export const DeviceTypeSchemaRoutes = {
  get: defineRoute({
    method: 'GET',
    path: base,
    params: TenantIdParams,
    response: DeviceTypeDataSchemaSchema,
    permission: 'things:info-model:query',
  }),
  createGroup: defineRoute({
    method: 'POST',
    path: `${base}/groups`,
    params: TenantIdParams,
    body: DataGroupInputSchema,
    response: DataGroupSchema,
    status: 201,
    permission: 'things:info-model:update',
  }),
  updateGroup: defineRoute({
    method: 'PUT',
    path: `${base}/groups/:group_id`,
    params: GroupParams,
    body: DataGroupUpdateSchema,
    response: DataGroupSchema,
    permission: 'things:info-model:update',
  }),
  /** 204. */
  deleteGroup: defineRoute({
    method: 'DELETE',
    path: `${base}/groups/:group_id`,
    params: GroupParams,
    permission: 'things:info-model:update',
  }),
  createField: defineRoute({
    method: 'POST',
    path: `${base}/groups/:group_id/fields`,
    params: GroupParams,
    body: DataFieldInputSchema,
    response: DataFieldSchema,
    status: 201,
    permission: 'things:info-model:update',
  }),
  updateField: defineRoute({
    method: 'PUT',
    path: `${base}/groups/:group_id/fields/:field_id`,
    params: FieldParams,
    body: DataFieldUpdateSchema,
    response: DataFieldSchema,
    permission: 'things:info-model:update',
  }),
  /** 204. */
  deleteField: defineRoute({
    method: 'DELETE',
    path: `${base}/groups/:group_id/fields/:field_id`,
    params: FieldParams,
    permission: 'things:info-model:update',
  }),
};
