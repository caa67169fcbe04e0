import { z } from 'zod';
import type { CodesOf } from '../errors.ts';

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

/**
 * Panels of a dashboard (spec §3 Panel: chart_type, dashboard_id, name, description, panel_order,
 * x_axis_type). A panel shows decoded signals of one device CAN channel: a line chart over a time
 * window, or the latest value as a number or a gauge.
 */
export const PANEL_CHART_TYPES = ['line', 'number', 'gauge'] as const;
export type PanelChartType = (typeof PANEL_CHART_TYPES)[number];

/** Time windows of a line panel (x_axis_type), newest data at the right edge. */
export const PANEL_WINDOWS = ['10m', '30m', '1h', '6h', '24h', '7d'] as const;
export type PanelWindow = (typeof PANEL_WINDOWS)[number];
export const PANEL_WINDOW_MS: Record<PanelWindow, number> = {
  '10m': 600_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '6h': 21_600_000,
  '24h': 86_400_000,
  '7d': 604_800_000,
};

/** Panels per dashboard. */
export const MAX_PANELS = 30;
/** Signals per line panel (spec §9 "curve max 10 items"); number and gauge panels show exactly one. */
export const MAX_PANEL_SIGNALS = 10;
export const PANEL_NAME_MAX = 32;
export const PANEL_DESCRIPTION_MAX = 200;

export type DashboardCode = CodesOf<'dashboard'>;

export const PanelSignalSchema = z.object({
  message: z.string().min(1).max(128),
  signal: z.string().min(1).max(128),
});
export type PanelSignal = z.infer<typeof PanelSignalSchema>;

export const PanelBodySchema = z.object({
  name: z.string().trim().min(1).max(PANEL_NAME_MAX),
  description: z.string().trim().max(PANEL_DESCRIPTION_MAX).default(''),
  chart_type: z.enum(PANEL_CHART_TYPES),
  x_axis_type: z.enum(PANEL_WINDOWS).default('1h'),
  things_id: z.guid(),
  channel: z.number().int().min(0).max(255),
  signals: z.array(PanelSignalSchema).min(1).max(MAX_PANEL_SIGNALS),
});
export type PanelBody = z.input<typeof PanelBodySchema>;

export const PanelSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  dashboard_id: z.string(),
  name: z.string(),
  description: z.string(),
  chart_type: z.enum(PANEL_CHART_TYPES),
  x_axis_type: z.enum(PANEL_WINDOWS),
  panel_order: z.number().int(),
  things_id: z.string(),
  /** The device's name, for the panel's subtitle. */
  things_name: z.string(),
  channel: z.number().int(),
  signals: z.array(PanelSignalSchema),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Panel = z.infer<typeof PanelSchema>;

export const PanelOrderSchema = z.object({ ids: z.array(z.guid()).min(1).max(MAX_PANELS) });

/** The latest stored sample of each signal of a panel, with what the DBC says of the signal. */
export const PanelValueSchema = z.object({
  message: z.string(),
  signal: z.string(),
  unit: z.string(),
  /** The DBC's range of the signal (a gauge's scale). */
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** ms since the epoch of the latest sample; null when nothing was stored yet. */
  time: z.number().nullable(),
  value: z.number().nullable(),
});
export type PanelValue = z.infer<typeof PanelValueSchema>;
export const PanelValuesSchema = z.object({ list: z.array(PanelValueSchema) });
