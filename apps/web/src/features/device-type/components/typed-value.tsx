import { Input, InputNumber, Switch } from 'antd';

/** The value type codes of spec §3 as a user reads them. */
export const VALUE_TYPE_KEYS: Record<number, string> = { 1: 'number', 2: 'string', 4: 'array', 5: 'object', 7: 'boolean' };

/** Reads a form value as the property's type: numbers and booleans as they are, arrays and objects from JSON text. */
export function parseTyped(dataType: number, v: unknown): { ok: true; value: unknown } | { ok: false } {
  if (dataType === 1) return typeof v === 'number' ? { ok: true, value: v } : { ok: false };
  if (dataType === 7) return { ok: true, value: v === true };
  if (dataType === 2) return { ok: true, value: String(v ?? '') };
  try {
    const value = JSON.parse(String(v ?? ''));
    if (dataType === 4) return Array.isArray(value) ? { ok: true, value } : { ok: false };
    return value && typeof value === 'object' && !Array.isArray(value) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** An input for a value of a property's data type. */
export function TypedInput({
  dataType,
  value,
  onChange,
  testId,
}: {
  dataType: number;
  value?: unknown;
  onChange?: (v: unknown) => void;
  testId?: string;
}) {
  if (dataType === 1)
    return <InputNumber data-testid={testId} value={value as number | null} onChange={(v) => onChange?.(v)} style={{ width: 140 }} />;
  if (dataType === 7) return <Switch data-testid={testId} checked={value === true} onChange={(v) => onChange?.(v)} />;
  return (
    <Input
      data-testid={testId}
      value={(value as string) ?? ''}
      placeholder={dataType === 4 ? '[ ]' : dataType === 5 ? '{ }' : undefined}
      onChange={(e) => onChange?.(e.target.value)}
      style={{ width: 180 }}
    />
  );
}

/** A value as text for a table cell. */
export const showValue = (v: unknown) => (v === undefined ? '--' : typeof v === 'string' ? v : JSON.stringify(v));
