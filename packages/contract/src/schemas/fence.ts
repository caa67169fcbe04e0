import { z } from 'zod';
import { pageOf } from './common.ts';

/**
 * Electronic fences (spec §3 e-fence, §9 limits): a region (polygon or circle) or a border
 * (polyline with a tolerance either side). Fences are bound to devices; trigger rules with
 * `data_type: 'fence'` fire when a bound device enters (`in`) or leaves (`out`) the fence.
 */

/** Spec §9: circle radius 50-10000 m. */
export const FENCE_RADIUS_MIN = 50;
export const FENCE_RADIUS_MAX = 10000;
export const FENCE_NAME_MAX = 50;
export const FENCE_MAX_POINTS = 1000;

/** Spec §9: latitude -90..90, longitude -180..180. */
export const LatLonSchema = z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) });
export type LatLon = z.infer<typeof LatLonSchema>;

export const FenceRegionSchema = z.discriminatedUnion('shape', [
  z.object({ shape: z.literal('polygon'), points: z.array(LatLonSchema).min(3).max(FENCE_MAX_POINTS) }),
  z.object({ shape: z.literal('circle'), center: LatLonSchema, radius: z.number().min(FENCE_RADIUS_MIN).max(FENCE_RADIUS_MAX) }),
]);
export type FenceRegion = z.infer<typeof FenceRegionSchema>;

/** A border: inside means within `tolerance` metres of the line. */
export const FenceBorderSchema = z.object({
  points: z.array(LatLonSchema).min(2).max(FENCE_MAX_POINTS),
  tolerance: z.number().min(FENCE_RADIUS_MIN).max(FENCE_RADIUS_MAX).default(FENCE_RADIUS_MIN),
});
export type FenceBorder = z.output<typeof FenceBorderSchema>;

const FenceFields = z.object({
  name: z
    .string()
    .min(1)
    .max(FENCE_NAME_MAX)
    .refine((s) => s.trim().length > 0, 'name is blank'),
  type: z.enum(['region', 'border']),
  region: FenceRegionSchema.nullable().default(null),
  border: FenceBorderSchema.nullable().default(null),
  description: z.string().max(500).default(''),
  /** Devices the fence applies to. */
  things_ids: z.array(z.uuid()).max(1000).optional(),
});

export const FenceInputSchema = FenceFields.superRefine((f, ctx) => {
  if (f.type === 'region' && !f.region) ctx.addIssue({ code: 'custom', path: ['region'], message: 'a region fence needs region' });
  if (f.type === 'border' && !f.border) ctx.addIssue({ code: 'custom', path: ['border'], message: 'a border fence needs border' });
});
export type FenceInput = z.input<typeof FenceInputSchema>;
export type FenceValues = z.output<typeof FenceInputSchema>;

export const FenceSchema = FenceFields.extend({
  id: z.string(),
  tenant_id: z.string(),
  things_ids: z.array(z.string()),
  rule_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Fence = z.infer<typeof FenceSchema>;
export const FencePageSchema = pageOf(FenceSchema);

export const FenceQuerySchema = z.object({
  name: z.string().max(FENCE_NAME_MAX).optional(),
  type: z.enum(['region', 'border']).optional(),
  things_id: z.uuid().optional(),
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const FenceBindSchema = z.object({ things_ids: z.array(z.uuid()).max(1000) });
