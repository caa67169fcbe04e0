import { z } from 'zod';
import { PageQuerySchema, pageOf } from './common.ts';

/**
 * A tenant's package (spec §3 user package). Numbers are counts unless named
 * otherwise: database_storage_space in GB, maximum_data_retention_days in days,
 * device_file_traffic_management in MB. null = no limit.
 */
export const PACKAGE_DEFAULTS = {
  info_model: 50,
  things_num: 2,
  can_things_num: null,
  ies_things_num: null,
  single_data_export: 0,
  maximum_total_number_documents_stored: 0,
  database_storage_space: 2,
  device_file_traffic_management: 0,
  alert_sms: 1000,
  alert_tps: 0,
  sub_user_num: 100,
  label_num: 100,
  maximum_data_retention_days: 180,
  number_simultaneous_connections: 0,
  up_down_stream_connections: 0,
  edge_computing: 10,
  push_rule: 50,
  push_tps: 0,
  alert_rule: 50,
  hmi: 10,
  data_analysis: 10,
  twins_rule_on: null,
  rule_capacity: 20,
  max_batch_recall_size: 10,
  quick_delete_things_num: 0,
  /** Exports and log uploads (and imports of recalled logs) the tenant runs at once (decision 0205). */
  concurrent_data_jobs: 3,
} as const satisfies Record<string, number | null>;

export type PackageNumberField = keyof typeof PACKAGE_DEFAULTS;
export const PACKAGE_NUMBER_FIELDS = Object.keys(PACKAGE_DEFAULTS) as PackageNumberField[];

/** special_storage: 0 general (shared), 1 user-exclusive, 2 device quick delete. */
export const StorageMode = { general: 0, exclusive: 1, quickDelete: 2 } as const;
/** Spec §4: general storage is refused above these; the package is forced to exclusive. */
export const GENERAL_STORAGE_MAX_RETENTION_DAYS = 90;
export const GENERAL_STORAGE_MAX_GB = 2;
/** Spec §4: general storage only for data kept at most 3 months in at most 2 GB (no limit counts as more). */
export function generalStorageAllowed(retentionDays: number | null, storageGb: number | null): boolean {
  return (
    retentionDays !== null &&
    retentionDays <= GENERAL_STORAGE_MAX_RETENTION_DAYS &&
    storageGb !== null &&
    storageGb <= GENERAL_STORAGE_MAX_GB
  );
}

/**
 * Resources counted against the package by `quota.assertCanAdd`.
 * `rule_capacity` bounds trigger rules per user (spec §9: 20).
 */
export const QUOTA_RESOURCES = [
  'info_model',
  'things_num',
  'can_things_num',
  'ies_things_num',
  'sub_user_num',
  'label_num',
  'edge_computing',
  'push_rule',
  'alert_rule',
  'hmi',
  'data_analysis',
  'rule_capacity',
  'quick_delete_things_num',
  'max_batch_recall_size',
  'maximum_total_number_documents_stored',
  'concurrent_data_jobs',
] as const satisfies readonly PackageNumberField[];
export type QuotaResource = (typeof QUOTA_RESOURCES)[number];

export const QuickDeleteThingSchema = z.object({
  third_things_id: z.string().max(64),
  info_model_name: z.string().max(128).default(''),
  info_model_id: z.string().max(64).default(''),
});

const count = z.number().int().nonnegative();

export const PackageSchema = z
  .object({
    tenant_id: z.string(),
    ...(Object.fromEntries(PACKAGE_NUMBER_FIELDS.map((f) => [f, count.nullable()])) as Record<
      PackageNumberField,
      z.ZodNullable<typeof count>
    >),
    special_storage: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    quick_delete_things_list: z.array(QuickDeleteThingSchema),
    /** 0 standard, 1 extension. */
    platform: z.number().int(),
    updated_at: z.string(),
  })
  .meta({ id: 'TenantPackage' });
export type TenantPackage = z.infer<typeof PackageSchema>;

/** System manager PUT: any subset; numbers up to 2^31-1, null lifts a limit. */
export const PackageUpdateSchema = z
  .object({
    ...(Object.fromEntries(PACKAGE_NUMBER_FIELDS.map((f) => [f, count.max(2_147_483_647).nullable().optional()])) as Record<
      PackageNumberField,
      z.ZodOptional<z.ZodNullable<z.ZodNumber>>
    >),
    special_storage: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    quick_delete_things_list: z.array(QuickDeleteThingSchema).max(100_000).optional(),
    platform: z.number().int().min(0).max(99).optional(),
  })
  .strict();
export type PackageUpdate = z.infer<typeof PackageUpdateSchema>;

export const PackageListItemSchema = PackageSchema.extend({ tenant_name: z.string() });
export const PackagePageSchema = pageOf(PackageListItemSchema);
export const PackageListQuerySchema = PageQuerySchema.extend({ name: z.string().max(64).optional() });

/** Spec §5 capacity form: integers, at least the current value, at most 100000; batch recall at most 50. */
export const CAPACITY_MAX = 100_000;
export const BATCH_RECALL_MAX = 50;
export const CAPACITY_FIELDS = [
  'things_num',
  'can_things_num',
  'ies_things_num',
  'database_storage_space',
  'single_data_export',
  'maximum_data_retention_days',
  'device_file_traffic_management',
  'max_batch_recall_size',
  'quick_delete_things_num',
] as const satisfies readonly PackageNumberField[];
export type CapacityField = (typeof CAPACITY_FIELDS)[number];

export const CapacityRequestSchema = z
  .object({
    ...(Object.fromEntries(CAPACITY_FIELDS.map((f) => [f, count.max(CAPACITY_MAX).optional()])) as Record<
      CapacityField,
      z.ZodOptional<z.ZodNumber>
    >),
    max_batch_recall_size: count.max(BATCH_RECALL_MAX).optional(),
    special_storage: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    quick_delete_things_list: z.array(QuickDeleteThingSchema).max(CAPACITY_MAX).optional(),
    /** Contact phone for the work order. */
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 -]{3,19}$/)
      .optional(),
    description: z.string().trim().max(2000).default(''),
  })
  .strict();
export type CapacityRequest = z.infer<typeof CapacityRequestSchema>;

/** Spec §9: usage in MB; disk_usage_rate in 1/100 percent (10000 = 100 %, over from there). */
export const USAGE_RATE_FULL = 10_000;

export const UsageSchema = z.object({
  tenant_id: z.string(),
  total_disk_usage: z.number(),
  /** database_storage_space × 1024 MB; null when the package sets no limit. */
  total_capacity: z.number().nullable(),
  disk_usage_rate: z.number().int(),
  over: z.boolean(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const ThingUsageSchema = z.object({
  things_id: z.string(),
  name: z.string().nullable(),
  bytes: z.number().int(),
  /** MB, 2 decimals. */
  usage: z.number(),
  /** Share of the tenant's capacity, 1/100 percent. */
  rate: z.number().int(),
});
/** Spec §9: capacity table page size 5, choices 5-25. */
export const ThingUsageQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(5).max(25).default(5),
});
export const ThingUsagePageSchema = pageOf(ThingUsageSchema);

export const TenantUsageItemSchema = UsageSchema.extend({ tenant_name: z.string() });
export const TenantUsagePageSchema = pageOf(TenantUsageItemSchema);

/** Spec §5 TPS form. */
export const TPS_MAX_THINGS = 1_000_000;
export const TPS_MAX_INTERVAL_S = 604_800;
export const TpsRequestSchema = z.object({
  things_num: z.number().int().min(0).max(TPS_MAX_THINGS),
  msg_interval: z.number().int().min(1).max(TPS_MAX_INTERVAL_S),
  /** Bytes per message; MQTT's own bound. */
  msg_size: z.number().int().min(0).max(268_435_455),
});
export type TpsRequest = z.infer<typeof TpsRequestSchema>;
const TpsFigures = z.object({
  up_down_stream_connections: z.number().int(),
  push_tps: z.number().int(),
  alert_tps: z.number().int(),
});
export const TpsResponseSchema = z.object({ minimum: TpsFigures, recommend: TpsFigures });
export type TpsResponse = z.infer<typeof TpsResponseSchema>;

/**
 * Spec §4/§7 quick-delete task: after password re-confirmation, every stored datum of the
 * devices (raw frames, decoded signals, GPS fixes, recalled files) goes, within the optional
 * time range [start_time, end_time) in ms since the epoch (no bound = from the first / up to
 * the last datum). Only devices of the package's quick-delete list. delete_children 1 adds
 * the devices whose parent is a listed device.
 */
export const QUICK_DELETE_MAX_THINGS = 25;
export const QuickDeleteRequestSchema = z
  .object({
    things_id: z.union([z.uuid(), z.array(z.uuid()).min(1).max(QUICK_DELETE_MAX_THINGS)]),
    delete_children: z.union([z.literal(0), z.literal(1)]).default(1),
    /** The caller's login password (re-confirmation). */
    password: z.string().min(1).max(128),
    start_time: z.number().int().min(0).optional(),
    end_time: z.number().int().min(0).optional(),
  })
  .strict();
export type QuickDeleteRequest = z.input<typeof QuickDeleteRequestSchema>;

/** Task status: 1 waiting, 2 deleting, 3 done, 4 failed. */
export const QuickDeleteStatus = { waiting: 1, running: 2, done: 3, failed: 4 } as const;
export const QuickDeleteTaskSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    things_ids: z.array(z.string()),
    start_time: z.number().nullable(),
    end_time: z.number().nullable(),
    status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
    /** Percent of the deletion steps done (one per device partition-day, signals, GPS, files). */
    process_rate: z.number().int().min(0).max(100),
    steps_done: z.number().int(),
    steps_total: z.number().int(),
    deleted_frames: z.number().int(),
    deleted_bytes: z.number().int(),
    error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'QuickDeleteTask' });
export type QuickDeleteTask = z.infer<typeof QuickDeleteTaskSchema>;
export const QuickDeleteTaskPageSchema = pageOf(QuickDeleteTaskSchema);
