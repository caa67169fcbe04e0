import { z } from 'zod';
import { PageQuerySchema, UuidSchema } from '../schemas/common.ts';
import {
  DeviceEventPageSchema,
  DeviceTypeCreateSchema,
  DeviceTypeSchema,
  ThingChildrenInputSchema,
  ThingCreateSchema,
  ThingImportResultSchema,
  ThingListQuerySchema,
  ThingPageSchema,
  ThingSchema,
  ThingStatusSchema,
  ThingUpdateSchema,
  VehicleCreateSchema,
  VehiclePageSchema,
  VehicleSchema,
  VehicleUpdateSchema,
} from '../schemas/things.ts';
import { DeviceParams, defineRoute, TenantIdParams, TenantParams } from './define.ts';

const base = '/things/tenants/:tenant_id';

/** Devices, device types, vehicles, device event log and status (spec §7 things service). */
export const ThingsRoutes = {
  types: defineRoute({
    method: 'GET',
    path: `${base}/device-types`,
    params: TenantParams,
    response: z.array(DeviceTypeSchema),
    permission: 'things:info-model:query',
  }),
  createType: defineRoute({
    method: 'POST',
    path: `${base}/device-types`,
    params: TenantParams,
    body: DeviceTypeCreateSchema,
    response: DeviceTypeSchema,
    permission: 'things:info-model:create',
  }),
  list: defineRoute({
    method: 'GET',
    path: `${base}/things`,
    params: TenantParams,
    query: ThingListQuerySchema,
    response: ThingPageSchema,
    permission: 'things:things:page',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${base}/things`,
    params: TenantParams,
    body: ThingCreateSchema,
    response: ThingSchema,
    permission: 'things:things:create',
  }),
  /** A CSV file (no JSON answer). */
  export: defineRoute({
    method: 'GET',
    path: `${base}/things/export`,
    params: TenantParams,
    query: ThingListQuerySchema,
    permission: 'things:things:export',
  }),
  /** Body: a CSV file as multipart or `text/csv`. */
  import: defineRoute({
    method: 'POST',
    path: `${base}/things/import`,
    params: TenantParams,
    response: ThingImportResultSchema,
    permission: 'things:things:import',
  }),
  /** Gateways: devices with at least one child (spec §7 things service gateways). */
  gateways: defineRoute({
    method: 'GET',
    path: `${base}/things/gateways`,
    params: TenantParams,
    query: ThingListQuerySchema,
    response: ThingPageSchema,
    permission: 'things:things:page',
  }),
  /** A gateway's children (spec §7 things service children). */
  children: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/children`,
    params: DeviceParams,
    query: ThingListQuerySchema,
    response: ThingPageSchema,
    permission: 'things:things:queryone',
  }),
  /** Makes devices children of this gateway (their uplinks may then come through it). */
  addChildren: defineRoute({
    method: 'POST',
    path: `${base}/things/:things_id/children`,
    params: DeviceParams,
    body: ThingChildrenInputSchema,
    response: ThingPageSchema,
    permission: 'things:things:update',
  }),
  /** Takes a child away from this gateway. 204. */
  removeChild: defineRoute({
    method: 'DELETE',
    path: `${base}/things/:things_id/children/:child_id`,
    params: DeviceParams.extend({ child_id: UuidSchema }),
    permission: 'things:things:update',
  }),
  /** The device's parents, nearest first: its gateway, that gateway's gateway… (spec §7 things service parents). */
  parents: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/parents`,
    params: DeviceParams,
    response: z.array(ThingSchema),
    permission: 'things:things:queryone',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id`,
    params: DeviceParams,
    response: ThingSchema,
    permission: 'things:things:queryone',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/things/:things_id`,
    params: DeviceParams,
    body: ThingUpdateSchema,
    response: ThingSchema,
    permission: 'things:things:update',
  }),
  /** 204. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/things/:things_id`,
    params: DeviceParams,
    permission: 'things:things:delete',
  }),
  setCollected: defineRoute({
    method: 'PUT',
    path: `${base}/things/:things_id/collected`,
    params: DeviceParams,
    body: z.object({ collected: z.boolean() }),
    response: ThingSchema,
    permission: 'things:things:query',
  }),
  regenerateKey: defineRoute({
    method: 'POST',
    path: `${base}/things/:things_id/key`,
    params: DeviceParams,
    response: ThingSchema,
    permission: 'things:things:update',
  }),
  status: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/status`,
    params: DeviceParams,
    response: ThingStatusSchema,
    permission: 'things:things:queryone',
  }),
  events: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/events`,
    params: DeviceParams,
    query: PageQuerySchema.extend({ kind: z.string().max(32).optional() }),
    response: DeviceEventPageSchema,
    permission: 'things:things:queryone',
  }),

  // Vehicles (CarManager).
  vehicles: defineRoute({
    method: 'GET',
    path: `${base}/vehicles`,
    params: TenantParams,
    query: PageQuerySchema.extend({ keyword: z.string().max(64).optional() }),
    response: VehiclePageSchema,
    permission: 'car:car:query',
  }),
  createVehicle: defineRoute({
    method: 'POST',
    path: `${base}/vehicles`,
    params: TenantParams,
    body: VehicleCreateSchema,
    response: VehicleSchema,
    permission: 'car:car:create',
  }),
  vehicle: defineRoute({
    method: 'GET',
    path: `${base}/vehicles/:id`,
    params: TenantIdParams,
    response: VehicleSchema,
    permission: 'car:car:query',
  }),
  updateVehicle: defineRoute({
    method: 'PUT',
    path: `${base}/vehicles/:id`,
    params: TenantIdParams,
    body: VehicleUpdateSchema,
    response: VehicleSchema,
    permission: 'car:car:update',
  }),
  /** 204. */
  removeVehicle: defineRoute({
    method: 'DELETE',
    path: `${base}/vehicles/:id`,
    params: TenantIdParams,
    permission: 'car:car:delete',
  }),
};
