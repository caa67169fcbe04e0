import { z } from 'zod';

/** Business type of the manager's default dashboard (spec §3). */
export const DEFAULT_DASHBOARD_TYPE = 'candtu_dashboard_default';

/** Name of the default dashboard: the owner's user id followed by the business type (spec §3). */
export const defaultDashboardName = (userId: string) => `${userId}${DEFAULT_DASHBOARD_TYPE}`;

export const DashboardSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  owner_id: z.string(),
  business_type: z.string(),
  name: z.string(),
  created_at: z.number().int(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

export const DashboardListQuerySchema = z.object({
  business_type: z.string().min(1).max(64).optional(),
});

export const CreateDashboardRequestSchema = z.object({
  business_type: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, underscore or dash'),
  name: z.string().trim().min(1).max(128),
});
export type CreateDashboardRequest = z.infer<typeof CreateDashboardRequestSchema>;
