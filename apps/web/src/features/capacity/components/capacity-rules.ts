import {
  BATCH_RECALL_MAX,
  CAPACITY_MAX,
  type CapacityField,
  type CapacityRequest,
  GENERAL_STORAGE_MAX_GB,
  GENERAL_STORAGE_MAX_RETENTION_DAYS,
  StorageMode,
  type TenantPackage,
} from '@loggerhead/contract/schemas/billing.ts';

/**
 * The capacity/package request form of spec §5 and §9, as pure functions: what each number
 * may be, what it starts at, and what the request sends.
 */

/** Spec §9: retention is asked for in months and stored in days (months × 30). */
export const DAYS_PER_MONTH = 30;

/** The numbers of the form, in the order shown, with the unit they are typed in. */
export const FORM_FIELDS = [
  'things_num',
  'can_things_num',
  'ies_things_num',
  'database_storage_space',
  'single_data_export',
  'retention_months',
  'device_file_traffic_management',
  'max_batch_recall_size',
  'quick_delete_things_num',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** Spec §9 form defaults: iot things 10, can 2, ies 2, storage 2 GB, export 100 (×10 000 rows), retention 2 months, traffic 60 MB. */
export const FORM_DEFAULTS: Record<FormField, number> = {
  things_num: 10,
  can_things_num: 2,
  ies_things_num: 2,
  database_storage_space: 2,
  single_data_export: 100,
  retention_months: 2,
  device_file_traffic_management: 60,
  max_batch_recall_size: 10,
  quick_delete_things_num: 0,
};

const packageField = (f: FormField): CapacityField => (f === 'retention_months' ? 'maximum_data_retention_days' : f);

/** The current package value in the form's unit; null when the package sets no limit. */
export function currentValue(pkg: TenantPackage, f: FormField): number | null {
  const v = pkg[packageField(f)];
  if (v === null) return null;
  return f === 'retention_months' ? Math.ceil(v / DAYS_PER_MONTH) : v;
}

/** Spec §5: the minimum is the current value; at most 100000, batch recall at most 50. */
export function bounds(pkg: TenantPackage, f: FormField): { min: number; max: number } {
  const max =
    f === 'max_batch_recall_size' ? BATCH_RECALL_MAX : f === 'retention_months' ? Math.floor(CAPACITY_MAX / DAYS_PER_MONTH) : CAPACITY_MAX;
  return { min: Math.min(currentValue(pkg, f) ?? 0, max), max };
}

/** Where the form starts: the current value, or the spec's default when that is higher or unset. */
export function initialValue(pkg: TenantPackage, f: FormField): number | null {
  const cur = currentValue(pkg, f);
  if (cur === null) return null;
  return Math.min(Math.max(cur, FORM_DEFAULTS[f]), bounds(pkg, f).max);
}

/** Spec §5 "integers only" and the bounds above; returns a message key or null. */
export function checkNumber(pkg: TenantPackage, f: FormField, v: unknown): string | null {
  if (v === null || v === undefined || v === '') return 'capacity.form.required';
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'capacity.form.integer';
  if (!Number.isInteger(v)) return 'capacity.form.integer';
  const { min, max } = bounds(pkg, f);
  if (v < min) return 'capacity.form.belowCurrent';
  if (v > max) return f === 'max_batch_recall_size' ? 'capacity.form.recallMax' : 'capacity.form.max';
  return null;
}

/**
 * Spec §4: general (shared) storage is not offered when retention exceeds 3 months or storage
 * exceeds 2 GB; the request is then forced to exclusive.
 */
export function generalAllowed(retentionMonths: number | null, storageGb: number | null): boolean {
  const days = retentionMonths === null ? Number.POSITIVE_INFINITY : retentionMonths * DAYS_PER_MONTH;
  const gb = storageGb === null ? Number.POSITIVE_INFINITY : storageGb;
  return days <= GENERAL_STORAGE_MAX_RETENTION_DAYS && gb <= GENERAL_STORAGE_MAX_GB;
}

export function effectiveMode(mode: number, retentionMonths: number | null, storageGb: number | null): 0 | 1 | 2 {
  if (mode === StorageMode.general && !generalAllowed(retentionMonths, storageGb)) return StorageMode.exclusive;
  return mode as 0 | 1 | 2;
}

export interface FormValues extends Partial<Record<FormField, number | null>> {
  special_storage: 0 | 1 | 2;
  quick_delete_things: string[];
  phone?: string;
  description?: string;
}

export interface DeviceChoice {
  id: string;
  third_things_id: string;
  info_model_id: string;
  info_model_name: string;
}

/** The body of POST capacity-requests: every number in package units, the mode and the device list. */
export function toRequest(v: FormValues, devices: DeviceChoice[]): CapacityRequest {
  const body: Record<string, unknown> = {};
  for (const f of FORM_FIELDS) {
    const n = v[f];
    if (n === null || n === undefined) continue;
    body[packageField(f)] = f === 'retention_months' ? n * DAYS_PER_MONTH : n;
  }
  body.special_storage = effectiveMode(v.special_storage, v.retention_months ?? null, v.database_storage_space ?? null);
  if (body.special_storage === StorageMode.quickDelete) {
    const chosen = new Set(v.quick_delete_things);
    body.quick_delete_things_list = devices
      .filter((d) => chosen.has(d.id))
      .map((d) => ({ third_things_id: d.third_things_id, info_model_id: d.info_model_id, info_model_name: d.info_model_name }));
  }
  if (v.phone?.trim()) body.phone = v.phone.trim();
  body.description = v.description?.trim() ?? '';
  return body as CapacityRequest;
}

/** Usage share as a pie: spec §9 total = storage × 1024 MB, rate in 1/100 percent (10000 = full). */
export function pieShare(rate: number): number {
  return Math.max(0, Math.min(1, rate / 10_000));
}
