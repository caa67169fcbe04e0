import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * HMI screens (spec /out-hmi, package quota `hmi`): operator screens a tenant builds without code. A
 * screen is a canvas of widgets on a grid, each bound to a device's decoded DBC signal or twin
 * (model) property; a button sends a command to a device or sets a twin desired property. A
 * published screen is given to HMI users (sub-users of the tenant, `out-hmi:user:*`).
 */

/** Screen status: 0 draft (only editors see it), 1 published (its HMI users see it). */
export const HmiStatus = { draft: 0, published: 1 } as const;

export const HMI_WIDGET_TYPES = ['value', 'gauge', 'lamp', 'trend', 'button', 'image', 'text'] as const;
export type HmiWidgetType = (typeof HMI_WIDGET_TYPES)[number];
/** Widgets that show a bound value (a binding is required). */
export const HMI_BOUND_TYPES: readonly HmiWidgetType[] = ['value', 'gauge', 'lamp', 'trend'];

/** Canvas limits: columns of the grid, rows it may reach, widgets on it, its size as JSON. */
export const HMI_GRID_COLS = 24;
export const HMI_GRID_ROWS = 200;
export const HMI_MAX_WIDGETS = 100;
export const HMI_MAX_CANVAS_BYTES = 256 * 1024;
/** An image widget's picture inline (data: URL) at most this many characters. */
export const HMI_MAX_IMAGE_CHARS = 128 * 1024;

const label = z.string().trim().max(64);

/** What a widget shows: a decoded DBC signal of a device channel, or a twin (model) property. */
export const HmiBindingSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('signal'),
    things_id: UuidSchema,
    channel: z.number().int().min(0).max(255),
    /** `Message.Signal` of the DBC bound to the channel. */
    signal: z
      .string()
      .max(257)
      .regex(/^[^.\s]+\.[^.\s]+$/, 'Message.Signal'),
  }),
  z.object({
    source: z.literal('property'),
    things_id: UuidSchema,
    /** `block.identifier` of the device's info model. */
    property: z.string().min(1).max(130),
  }),
]);
export type HmiBinding = z.infer<typeof HmiBindingSchema>;

const params = z.record(z.string().max(64), z.unknown()).refine((p) => JSON.stringify(p).length <= 8192, 'at most 8 KB of parameters');

/** What a button does: send a command to a device, or set desired twin properties of a device. */
export const HmiActionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    things_id: UuidSchema,
    operation_name: z.string().min(1).max(128),
    operation_params: params.default({}),
  }),
  z.object({
    kind: z.literal('twin'),
    things_id: UuidSchema,
    desired: params.refine((d) => Object.keys(d).length > 0 && Object.keys(d).length <= 50, '1-50 values'),
  }),
]);
export type HmiAction = z.infer<typeof HmiActionSchema>;

/**
 * An image widget's picture: inline (a data:image URL) or a path on the console's own origin. The
 * console's Content-Security-Policy shows no image from another host, so none is accepted.
 */
const imageUrl = z
  .string()
  .max(HMI_MAX_IMAGE_CHARS)
  .regex(/^(\/(?!\/)[^\s"'<>]*|data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+)$/, 'a data:image URL or a path on this site');

export const HmiWidgetSchema = z
  .object({
    /** Unique on its canvas; a button is pressed by it. */
    id: z
      .string()
      .min(1)
      .max(32)
      .regex(/^[A-Za-z0-9_-]+$/),
    type: z.enum(HMI_WIDGET_TYPES),
    /** Grid cells: column, row, width, height. */
    x: z
      .number()
      .int()
      .min(0)
      .max(HMI_GRID_COLS - 1),
    y: z
      .number()
      .int()
      .min(0)
      .max(HMI_GRID_ROWS - 1),
    w: z.number().int().min(1).max(HMI_GRID_COLS),
    h: z.number().int().min(1).max(40),
    label: label.default(''),
    binding: HmiBindingSchema.optional(),
    unit: z.string().max(16).optional(),
    decimals: z.number().int().min(0).max(6).optional(),
    /** Gauge scale. */
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    /** Lamp: lit when the value is at or above it. */
    threshold: z.number().finite().optional(),
    /** Text widget. */
    text: z.string().max(2000).optional(),
    /** Image widget. */
    image_url: imageUrl.optional(),
    /** Button. */
    action: HmiActionSchema.optional(),
  })
  .superRefine((w, ctx) => {
    const need = (field: keyof typeof w, ok: boolean, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [field], message });
    };
    if (w.x + w.w > HMI_GRID_COLS) ctx.addIssue({ code: 'custom', path: ['w'], message: `beyond the ${HMI_GRID_COLS} columns` });
    if (HMI_BOUND_TYPES.includes(w.type)) need('binding', !!w.binding, `a ${w.type} needs a binding`);
    if (w.type === 'gauge') {
      need('min', w.min !== undefined, 'a gauge needs min');
      need('max', w.max !== undefined && w.min !== undefined && w.max > w.min, 'a gauge needs max above min');
    }
    if (w.type === 'lamp') need('threshold', w.threshold !== undefined, 'a lamp needs a threshold');
    if (w.type === 'button') need('action', !!w.action, 'a button needs an action');
    if (w.type === 'image') need('image_url', !!w.image_url, 'an image needs image_url');
    if (w.type === 'text') need('text', !!w.text, 'a text needs text');
  });
export type HmiWidget = z.infer<typeof HmiWidgetSchema>;
export type HmiWidgetInput = z.input<typeof HmiWidgetSchema>;

export const HmiCanvasSchema = z
  .object({
    /** Height of a grid row in pixels (columns share the width). */
    row_height: z.number().int().min(8).max(200).default(40),
    background: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional(),
    widgets: z.array(HmiWidgetSchema).max(HMI_MAX_WIDGETS).default([]),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.widgets.forEach((w, i) => {
      if (seen.has(w.id)) ctx.addIssue({ code: 'custom', path: ['widgets', i, 'id'], message: 'widget ids must be unique' });
      seen.add(w.id);
    });
    if (JSON.stringify(c).length > HMI_MAX_CANVAS_BYTES)
      ctx.addIssue({ code: 'custom', path: [], message: `the canvas is larger than ${HMI_MAX_CANVAS_BYTES / 1024} KB` });
  });
export type HmiCanvas = z.infer<typeof HmiCanvasSchema>;

export const HmiScreenInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().trim().max(256).default(''),
  canvas: HmiCanvasSchema.default({ row_height: 40, widgets: [] }),
});
export type HmiScreenInput = z.input<typeof HmiScreenInputSchema>;

export const HmiScreenSummarySchema = z.object({
  id: UuidSchema,
  tenant_id: UuidSchema,
  name: z.string(),
  description: z.string(),
  status: z.union([z.literal(HmiStatus.draft), z.literal(HmiStatus.published)]),
  widget_count: z.number().int(),
  /** HMI users the screen is given to. */
  user_count: z.number().int(),
  published_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type HmiScreenSummary = z.infer<typeof HmiScreenSummarySchema>;

export const HmiScreenSchema = HmiScreenSummarySchema.extend({ canvas: HmiCanvasSchema });
export type HmiScreen = z.infer<typeof HmiScreenSchema>;

export const HmiScreenPageSchema = pageOf(HmiScreenSummarySchema);
export const HmiScreenListQuerySchema = PageQuerySchema.extend({
  keyword: z.string().trim().max(64).optional(),
  status: z.coerce
    .number()
    .int()
    .refine((s) => s === 0 || s === 1, '0 or 1')
    .optional(),
});

/** `POST …/screens/{id}/press`: the button pressed (by its widget id). */
export const HmiPressSchema = z.object({ widget_id: z.string().min(1).max(32) });
/**
 * What a press did: the command sent (its state once the device answered, or as it stood after a few
 * seconds), or the twin's desired version set.
 */
export const HmiPressResultSchema = z.object({
  kind: z.enum(['command', 'twin']),
  things_id: UuidSchema,
  correlation_id: z.string().nullable(),
  state: z.string(),
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  desired_version: z.number().int().nullable(),
});
export type HmiPressResult = z.infer<typeof HmiPressResultSchema>;

/** An HMI user: a sub-user of the tenant and the screens given to them. */
export const HmiUserSchema = z.object({
  user_id: UuidSchema,
  username: z.string(),
  name: z.string(),
  screen_ids: z.array(UuidSchema),
});
export type HmiUser = z.infer<typeof HmiUserSchema>;
export const HmiUserListSchema = z.object({ list: z.array(HmiUserSchema) });
export const HMI_MAX_USER_SCREENS = 100;
export const HmiUserScreensSchema = z.object({ screen_ids: z.array(UuidSchema).max(HMI_MAX_USER_SCREENS) });
