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
