import { z } from 'zod';

/**
 * The data schema of a device type (spec §3 "Device type: data groups and fields"): the
 * telemetry a plain IoT device sends is grouped, and each field says how the console shows
 * it. A tenant keeps its own schema for its own types and for the public ones.
 */

/** Spec §5: letters, digits and underscore, not starting with a digit. */
export const FIELD_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const FIELD_NAME_MAX = 64;
export const GROUPS_PER_TYPE_MAX = 50;
export const FIELDS_PER_GROUP_MAX = 200;

/**
 * Spec §3 display formats: decimal; hex with 0x prefix; spaced bytes; original long; time
 * format; accuracy (fixed decimals); original string; hex string shown as hex; hex string
 * shown as ASCII.
 */
export const DISPLAY_FORMATS = [
  'decimal',
  'hex',
  'hex_bytes',
  'original_long',
  'time',
  'accuracy',
  'original_string',
  'hexstr_to_hex',
  'hexstr_to_ascii',
] as const;
export type DisplayFormat = (typeof DISPLAY_FORMATS)[number];

/** Unit of a number shown with the `time` format. */
export const TIME_UNITS = ['ms', 's'] as const;
export const DEFAULT_TIME_PATTERN = 'YYYY-MM-DD HH:mm:ss';
export const ACCURACY_MAX = 10;

const name = z.string().trim().min(1).max(FIELD_NAME_MAX).regex(FIELD_NAME_RE, 'letters, digits and underscore, not starting with a digit');

export const DataFieldSchema = z
  .object({
    id: z.string(),
    group_id: z.string(),
    name: z.string(),
    display_name: z.string(),
    /** The value is an array of this type; each element is formatted. */
    is_array: z.boolean(),
    /** Shown in the device data views (hidden fields are still stored). */
    is_display: z.boolean(),
    notes: z.string(),
    display_format: z.enum(DISPLAY_FORMATS),
    /** `accuracy`: digits after the decimal point. */
    accuracy: z.number().int().min(0).max(ACCURACY_MAX),
    /** `time`: dayjs pattern and the unit of the number. */
    time_format: z.string(),
    time_unit: z.enum(TIME_UNITS),
    sort: z.number().int(),
  })
  .meta({ id: 'DeviceTypeDataField' });
export type DataField = z.infer<typeof DataFieldSchema>;

export const DataGroupSchema = z
  .object({
    id: z.string(),
    device_type_id: z.string(),
    name: z.string(),
    display_name: z.string(),
    description: z.string(),
    sort: z.number().int(),
    fields: z.array(DataFieldSchema),
  })
  .meta({ id: 'DeviceTypeDataGroup' });
export type DataGroup = z.infer<typeof DataGroupSchema>;

export const DeviceTypeDataSchemaSchema = z.object({
  device_type_id: z.string(),
  groups: z.array(DataGroupSchema),
});
export type DeviceTypeDataSchema = z.infer<typeof DeviceTypeDataSchemaSchema>;

// Update schemas come from the bases without defaults: a PUT changes only what it names.
const GroupBase = z.object({
  name,
  display_name: z.string().trim().max(64),
  description: z.string().trim().max(256),
  sort: z.number().int().min(0).max(10_000),
});
export const DataGroupInputSchema = GroupBase.extend({
  display_name: GroupBase.shape.display_name.default(''),
  description: GroupBase.shape.description.default(''),
  sort: GroupBase.shape.sort.default(0),
});
export type DataGroupInput = z.input<typeof DataGroupInputSchema>;
export const DataGroupUpdateSchema = GroupBase.partial();

const FieldBase = z.object({
  name,
  display_name: z.string().trim().max(64),
  is_array: z.boolean(),
  is_display: z.boolean(),
  notes: z.string().trim().max(500),
  display_format: z.enum(DISPLAY_FORMATS),
  accuracy: z.number().int().min(0).max(ACCURACY_MAX),
  time_format: z.string().trim().min(1).max(40),
  time_unit: z.enum(TIME_UNITS),
  sort: z.number().int().min(0).max(10_000),
});
export const DataFieldInputSchema = FieldBase.extend({
  display_name: FieldBase.shape.display_name.default(''),
  is_array: FieldBase.shape.is_array.default(false),
  is_display: FieldBase.shape.is_display.default(true),
  notes: FieldBase.shape.notes.default(''),
  display_format: FieldBase.shape.display_format.default('original_string'),
  accuracy: FieldBase.shape.accuracy.default(2),
  time_format: FieldBase.shape.time_format.default(DEFAULT_TIME_PATTERN),
  time_unit: FieldBase.shape.time_unit.default('ms'),
  sort: FieldBase.shape.sort.default(0),
});
export type DataFieldInput = z.input<typeof DataFieldInputSchema>;
export const DataFieldUpdateSchema = FieldBase.partial();
