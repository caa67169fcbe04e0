import type { DataField } from '@loggerhead/contract/schemas/device-type-schema.ts';
import dayjs from 'dayjs';
import { EMPTY } from '../../../lib/format.ts';

/**
 * How a device-type field shows a value (spec §3 display formats). Pure: the device data
 * views of plain IoT devices call it for each value they show. Values come from device
 * JSON, so anything may arrive; what a format cannot read is shown as it came.
 */
export type FieldFormat = Pick<DataField, 'display_format' | 'accuracy' | 'time_format' | 'time_unit' | 'is_array'>;

const HEX_RE = /^(0x)?[0-9a-f]*$/i;

function plain(v: unknown): string {
  if (v === null || v === undefined) return EMPTY;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A whole number from a number, bigint or integer text (decimal or 0x hex); null otherwise. */
function whole(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) && Number.isInteger(v) ? BigInt(v) : null;
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^-?\d+$/.test(s)) return BigInt(s);
    if (/^0x[0-9a-f]+$/i.test(s)) return BigInt(s);
  }
  return null;
}

/** Hex digits of a hex string ("0a 1B", "0x0a1b"), or null when it is not one. */
function hexDigits(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.replace(/[\s:-]/g, '');
  if (!HEX_RE.test(s)) return null;
  const digits = s.replace(/^0x/i, '');
  if (digits.length === 0) return null;
  return (digits.length % 2 ? `0${digits}` : digits).toUpperCase();
}

const isByteArray = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length > 0 && v.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255);

function bytesOf(v: unknown): string | null {
  if (isByteArray(v)) return v.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
  const n = whole(v);
  if (n !== null && n >= 0n) {
    const hex = n.toString(16).toUpperCase();
    return (hex.length % 2 ? `0${hex}` : hex).replace(/(..)(?!$)/g, '$1 ');
  }
  const h = hexDigits(v);
  return h ? h.replace(/(..)(?!$)/g, '$1 ') : null;
}

function one(v: unknown, f: FieldFormat): string {
  if (v === null || v === undefined || v === '') return EMPTY;
  switch (f.display_format) {
    case 'decimal': {
      const n = whole(v);
      if (n !== null) return n.toString(10);
      const x = typeof v === 'string' ? Number(v) : v;
      return typeof x === 'number' && Number.isFinite(x) ? String(x) : plain(v);
    }
    case 'hex': {
      const n = whole(v);
      if (n === null) return plain(v);
      return n < 0n ? `-0x${(-n).toString(16).toUpperCase()}` : `0x${n.toString(16).toUpperCase()}`;
    }
    case 'hex_bytes':
      return bytesOf(v) ?? plain(v);
    case 'original_long': {
      // JSON numbers past 2^53 print as 1e+21; a long is shown with all its digits.
      if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v)).toString();
      return plain(v);
    }
    case 'time': {
      const n = typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
      if (typeof n === 'number' && Number.isFinite(n)) {
        const d = dayjs(f.time_unit === 's' ? n * 1000 : n);
        return d.isValid() ? d.format(f.time_format) : plain(v);
      }
      const d = typeof v === 'string' ? dayjs(v) : null;
      return d?.isValid() ? d.format(f.time_format) : plain(v);
    }
    case 'accuracy': {
      const x = typeof v === 'string' ? Number(v) : v;
      return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(f.accuracy) : plain(v);
    }
    case 'hexstr_to_hex': {
      const h = hexDigits(v);
      return h ? `0x${h}` : plain(v);
    }
    case 'hexstr_to_ascii': {
      const h = hexDigits(v);
      if (!h) return plain(v);
      let out = '';
      for (let i = 0; i < h.length; i += 2) {
        const c = Number.parseInt(h.slice(i, i + 2), 16);
        // Control and non-ASCII bytes show as a dot, as hex viewers do.
        out += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.';
      }
      return out;
    }
    default:
      return plain(v);
  }
}

/** Formats a field's value; an array field formats each element (bytes stay together). */
export function formatFieldValue(value: unknown, f: FieldFormat): string {
  if (f.is_array && Array.isArray(value)) {
    if (f.display_format === 'hex_bytes' && isByteArray(value)) return one(value, f);
    return `[${value.map((v) => one(v, f)).join(', ')}]`;
  }
  return one(value, f);
}
