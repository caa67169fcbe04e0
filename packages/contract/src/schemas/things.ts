import { z } from 'zod';

/** Spec §5: device ID is 20 upper-case hexadecimal characters. */
export const DEVICE_ID_RE = /^[0-9A-F]{20}$/;
/** ISO 3779 VIN: 17 characters, letters I, O and Q never used. */
export const VIN_RE = /^[A-HJ-NPR-Z0-9]{17}$/;

export const ThingChannelSchema = z.object({
  index: z.number().int().min(0).max(15),
  typeId: z.number().int().nullable().optional(),
  status: z.number().int().nullable().optional(),
  signalStrategy: z.string().max(128).nullable().optional(),
});
export type ThingChannel = z.infer<typeof ThingChannelSchema>;

/** Spec §7 device label: tenantLabelId, labelValue, description. */
export const ThingLabelSchema = z.object({
  /** The id of a label of the tenant's label registry. */
  tenantLabelId: z.string().min(1).max(64),
  labelValue: z.string().max(256),
  description: z.string().max(256).nullable().optional(),
});
export type ThingLabel = z.infer<typeof ThingLabelSchema>;

export const DeviceTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string().nullable(),
  description: z.string().nullable(),
  can_channels: z.number().int(),
  thing_type: z.number().int(),
  public: z.boolean(),
});
export type DeviceType = z.infer<typeof DeviceTypeSchema>;

export const DeviceTypeCreateSchema = z.object({
  name: z.string().trim().min(1).max(64),
  display_name: z.string().max(64).nullable().optional(),
  description: z.string().max(256).nullable().optional(),
  can_channels: z.number().int().min(0).max(16),
  thing_type: z.number().int().min(0).max(1).default(0),
});

/** Spec §3 Device + Thing (platform view). */
export const ThingSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  third_things_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  info_model_id: z.string(),
  info_model_name: z.string(),
  can_channels: z.number().int(),
  thing_type: z.number().int(),
  parent_things_id: z.string().nullable(),
  things_key: z.string(),
  /** Spec §3 collected: the caller's own favourite star (per user; per session for the experience account). */
  collected: z.boolean(),
  labels: z.array(ThingLabelSchema),
  attributes: z.object({ channels: z.array(ThingChannelSchema) }),
  is_online: z.boolean(),
  connection_status: z.number().int(),
  digital_twin_things_status: z.number().int(),
  sd_card_status: z.string().nullable(),
  firmware: z.string().nullable(),
  server: z.string().nullable(),
  channel_enable: z.number().int(),
  last_seen_at: z.number().int().nullable(),
  /** The caller's access to this device: managers `write`, sub-users per grant. */
  access: z.enum(['read', 'write']),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Thing = z.infer<typeof ThingSchema>;

export const ThingCreateSchema = z.object({
  third_things_id: z.string().trim(),
  name: z.string().trim().min(1).max(64),
  info_model_id: z.string().uuid(),
  description: z.string().max(256).nullable().optional(),
  parent_things_id: z.string().uuid().nullable().optional(),
  collected: z.boolean().optional(),
  labels: z.array(ThingLabelSchema).max(100).optional(),
  channels: z.array(ThingChannelSchema).max(16).optional(),
});
export type ThingCreate = z.infer<typeof ThingCreateSchema>;

export const ThingUpdateSchema = ThingCreateSchema.omit({ third_things_id: true }).partial();
export type ThingUpdate = z.infer<typeof ThingUpdateSchema>;

export const ThingListQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(10000).default(20),
  keyword: z.string().max(64).optional(),
  info_model_id: z.string().uuid().optional(),
  collected: z.enum(['0', '1', 'true', 'false']).optional(),
  is_online: z.enum(['0', '1', 'true', 'false']).optional(),
  /** A registry label's id: devices carrying it. */
  label: z.string().max(64).optional(),
  /** With `label`: only devices whose value of it is this. */
  label_value: z.string().max(256).optional(),
  /** A device group of the tenant: its members (of those the caller may see). */
  group_id: z.string().uuid().optional(),
  /** A gateway of the tenant: its children (of those the caller may see). */
  parent_things_id: z.string().uuid().optional(),
  /** '1'/'true': only gateways (devices with at least one child). */
  is_gateway: z.enum(['0', '1', 'true', 'false']).optional(),
  /** Spec §7: order_type 1 descending, 0 ascending. */
  order_param: z.enum(['created_at', 'name', 'third_things_id', 'last_seen_at']).default('created_at'),
  order_type: z.coerce.number().int().min(0).max(1).default(1),
});
export type ThingListQuery = z.infer<typeof ThingListQuerySchema>;

/** A gateway's children to bind (their `parent_things_id` becomes the gateway). */
export const ThingChildrenInputSchema = z.object({ things_ids: z.array(z.string().uuid()).min(1).max(1000) });

export const ThingPageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(ThingSchema),
});

export const ThingImportResultSchema = z.object({
  created: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), code: z.string(), message: z.string() })),
});

export const ThingStatusSchema = z.object({
  id: z.string(),
  third_things_id: z.string(),
  is_online: z.boolean(),
  connection_status: z.number().int(),
  sd_card_status: z.string().nullable(),
  firmware: z.string().nullable(),
  server: z.string().nullable(),
  channel_enable: z.number().int(),
  channels: z.array(z.object({ index: z.number().int(), name: z.string(), enabled: z.boolean() })),
  last_seen_at: z.number().int().nullable(),
  frames_stored: z.number().int(),
  bytes_stored: z.number().int(),
  malformed_count: z.number().int(),
  last_frame_at: z.number().int().nullable(),
});
export type ThingStatus = z.infer<typeof ThingStatusSchema>;

export const DeviceEventSchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  kind: z.enum(['connect', 'disconnect', 'error', 'malformed', 'status', 'auth-failed', 'key-regenerated', 'upload']),
  message: z.string(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type DeviceEvent = z.infer<typeof DeviceEventSchema>;

export const DeviceEventPageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(DeviceEventSchema),
});

export const VehicleChannelSchema = z.object({
  name: z.string().trim().min(1).max(32),
  things_id: z.string().uuid(),
  channel: z.number().int().min(0).max(15),
});

export const VehicleSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  vin: z.string().nullable(),
  description: z.string().nullable(),
  channels: z.array(VehicleChannelSchema.extend({ third_things_id: z.string().nullable() })),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Vehicle = z.infer<typeof VehicleSchema>;

export const VehicleCreateSchema = z.object({
  name: z.string().trim().min(1).max(64),
  vin: z.string().trim().toUpperCase().nullable().optional(),
  description: z.string().max(256).nullable().optional(),
  channels: z.array(VehicleChannelSchema).max(32).default([]),
});
export type VehicleCreate = z.infer<typeof VehicleCreateSchema>;
export const VehicleUpdateSchema = VehicleCreateSchema.partial();

export const VehiclePageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(VehicleSchema),
});
