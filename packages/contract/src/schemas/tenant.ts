import { z } from 'zod';
import { UuidSchema } from './common.ts';

/** Tenant status: 0 pending review, 1 active, 2 rejected, 3 disabled. */
export const TENANT_STATUS = { pending: 0, active: 1, rejected: 2, disabled: 3 } as const;

/** A tenant as the system manager sees it (spec §3 Tenant (admin)). */
export const TenantSchema = z.object({
  id: z.string(),
  name: z.string(),
  tenant_type: z.number().int(),
  organization_name: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  country: z.string().nullable(),
  industry: z.string().nullable(),
  description: z.string().nullable(),
  status: z.number().int(),
  audited: z.boolean(),
  platform: z.number().int(),
  belong_platform: z.string().nullable(),
  priority: z.number().int(),
  merchant_id: z.string().nullable(),
  is_demo: z.boolean(),
  return_visit_time: z.number().int().nullable(),
  created_at: z.number().int(),
  manager_username: z.string().nullable(),
});
export type Tenant = z.infer<typeof TenantSchema>;

/** Spec §9: tenants page size 20. */
export const TenantListQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(20),
  name: z.string().max(64).optional(),
  mobile: z.string().max(32).optional(),
  status: z.coerce.number().int().min(0).max(3).optional(),
});
export type TenantListQuery = z.infer<typeof TenantListQuerySchema>;

export const TenantAuditQuerySchema = TenantListQuerySchema.extend({
  /** Default: pending review only. */
  status: z.coerce.number().int().min(0).max(3).default(0),
});

export const TenantUpdateRequestSchema = z.object({
  organization_name: z.string().max(64).nullable().optional(),
  mobile: z.string().max(32).nullable().optional(),
  email: z.string().max(254).nullable().optional(),
  address: z.string().max(128).nullable().optional(),
  city: z.string().max(64).nullable().optional(),
  province: z.string().max(64).nullable().optional(),
  country: z.string().max(64).nullable().optional(),
  industry: z.string().max(64).nullable().optional(),
  description: z.string().max(512).nullable().optional(),
  status: z.number().int().min(0).max(3).optional(),
  /** Whether the registration counts as reviewed (spec §3 Tenant (admin) audited). */
  audited: z.boolean().optional(),
  platform: z.number().int().min(0).max(1).optional(),
  belong_platform: z.string().max(64).nullable().optional(),
  priority: z.number().int().min(0).max(100).optional(),
  /** ms since epoch. */
  return_visit_time: z.number().int().nullable().optional(),
});
export type TenantUpdateRequest = z.infer<typeof TenantUpdateRequestSchema>;

export const TenantAuditParamsSchema = z.object({ id: UuidSchema, pass: z.enum(['0', '1']) });
export const TenantAuditBodySchema = z
  .object({ notify: z.boolean().default(false), remark: z.string().max(256).optional() })
  .default({ notify: false });

export const TenantAuditStatisticSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  active: z.number().int(),
  rejected: z.number().int(),
  disabled: z.number().int(),
});

// ---------------------------------------------------------------- customisation (spec §3)

export const CUSTOMIZATION_KEYS = [
  'systemLanguage',
  'systemName',
  'systemTheme',
  'systemLogo',
  'systemWebBottomCompany',
  'systemWebBottomPhone',
  'systemWebBottomEmail',
] as const;
export type CustomizationKey = (typeof CUSTOMIZATION_KEYS)[number];

export const CustomizationItemSchema = z.object({
  key: z.enum(CUSTOMIZATION_KEYS),
  // a logo may be a data URL
  value: z.string().max(512 * 1024),
});
export const CustomizationSchema = z.object({
  tenant_id: z.string(),
  data: z.array(CustomizationItemSchema),
});
export const PutCustomizationRequestSchema = z.object({ data: z.array(CustomizationItemSchema).max(CUSTOMIZATION_KEYS.length * 2) });

// ---------------------------------------------------------------- a tenant's users (system manager)

/** A user of a tenant as the system manager sees it (spec §3 Tenant user), the manager first. */
export const TenantUserSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  nick_name: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  department: z.string().nullable(),
  description: z.string().nullable(),
  gender: z.string(),
  job: z.string().nullable(),
  last_login_ip: z.string().nullable(),
  /** ms since epoch. */
  last_login_time: z.number().int().nullable(),
  parent_user_id: z.string().nullable(),
  /** 1 the tenant's manager, 2 a sub-user. */
  type: z.number().int(),
  status: z.number().int(),
  created_at: z.number().int(),
});
export type TenantUser = z.infer<typeof TenantUserSchema>;
export const TenantUserListQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(20),
});
export const TenantAccountParamsSchema = z.object({ id: UuidSchema, user_id: UuidSchema });
/** No password: the default one (the last 8 digits of the mobile). */
export const TenantUserResetPasswordSchema = z.object({ password: z.string().max(128).optional() }).default({});

// ---------------------------------------------------------------- tenant quotas (spec §3), stored in the package

/**
 * The spec's tenant quotas and the package field each one is: one store (tenant_packages), the
 * limits the modules already enforce. bytes_quota is database_storage_space (whole GiB) in bytes.
 */
export const TENANT_QUOTA_FIELDS = {
  bytes_quota: 'database_storage_space',
  things_quota: 'things_num',
  documents_download_quota: 'maximum_total_number_documents_stored',
  labels_quota: 'label_num',
  rules_quota: 'alert_rule',
  users_quota: 'sub_user_num',
} as const;
export type TenantQuotaName = keyof typeof TENANT_QUOTA_FIELDS;
export const TENANT_QUOTA_NAMES = Object.keys(TENANT_QUOTA_FIELDS) as TenantQuotaName[];
export const GIB = 1024 * 1024 * 1024;

export const TenantQuotaItemSchema = z.object({
  quota: z.enum(TENANT_QUOTA_NAMES as [TenantQuotaName, ...TenantQuotaName[]]),
  /** The package field that holds it. */
  package_field: z.string(),
  /** null: no limit. */
  limit: z.number().nullable(),
  /** What the tenant uses now, in the same unit. */
  usage: z.number(),
});
export const TenantQuotasSchema = z.object({
  tenant_id: z.string(),
  /** The platform's own tenant (held to its quotas too, unless exempted). */
  is_platform: z.boolean(),
  /** Exempted by the system manager from every package limit. */
  quota_exempt: z.boolean(),
  quotas: z.array(TenantQuotaItemSchema),
  /** 0 keep as long as the package allows, 1 reclaim earlier. */
  reclaim_policy: z.number().int(),
  max_reserves_duration: z.number().int().nullable(),
  /** The package's retention, the bound of max_reserves_duration; null for ever. */
  maximum_data_retention_days: z.number().int().nullable(),
});
export type TenantQuotas = z.infer<typeof TenantQuotasSchema>;

/** Counts up to 2^31-1; bytes_quota in whole GiB up to 2^31-1 GiB (the service checks both). */
const quotaNumber = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable().optional();
/** Any subset; null lifts a limit. */
export const TenantQuotasUpdateSchema = z
  .object({
    ...(Object.fromEntries(TENANT_QUOTA_NAMES.map((q) => [q, quotaNumber])) as Record<TenantQuotaName, typeof quotaNumber>),
    reclaim_policy: z.union([z.literal(0), z.literal(1)]).optional(),
    max_reserves_duration: z.number().int().min(1).nullable().optional(),
    quota_exempt: z.boolean().optional(),
  })
  .strict();
export type TenantQuotasUpdate = z.infer<typeof TenantQuotasUpdateSchema>;
