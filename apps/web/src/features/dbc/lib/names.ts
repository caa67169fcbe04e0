import { DBC_MAX_BYTES, STRATEGY_MAX_SIGNALS, STRATEGY_NAME_RE, STRATEGY_PREFIX } from '@loggerhead/contract/schemas/dbc.ts';

/** Spec §5: curve names are 2-32 characters; at most 10 curves are drawn at once. */
export const CURVE_NAME_MIN = 2;
export const CURVE_NAME_MAX = 32;
export const MAX_CURVES_SHOWN = 10;
/** Spec §9: up to 30 option points (curve choices) are saved. */
export const MAX_SAVED_CURVES = 30;
export const STRATEGY_NAME_MAX = 64;

export type NameProblem = 'required' | 'pattern' | 'length' | null;

/** Spec §5 signal strategy name: letters, digits, underscore, not starting with a digit. */
export function strategyNameProblem(name: string): NameProblem {
  const v = name.trim();
  if (!v) return 'required';
  if (v.length > STRATEGY_NAME_MAX) return 'length';
  return STRATEGY_NAME_RE.test(v) ? null : 'pattern';
}

/** The name offered for a new strategy: the spec's prefix and a short unique suffix. */
export function defaultStrategyName(now: number = Date.now()): string {
  return `${STRATEGY_PREFIX}${now.toString(36).toUpperCase()}`;
}

export function strategySignalsProblem(count: number): 'min' | 'max' | null {
  if (count < 1) return 'min';
  return count > STRATEGY_MAX_SIGNALS ? 'max' : null;
}

export function curveNameProblem(name: string): NameProblem {
  const v = name.trim();
  if (!v) return 'required';
  return v.length < CURVE_NAME_MIN || v.length > CURVE_NAME_MAX ? 'length' : null;
}

/** Spec §5 file selector: `.dbc` only, and not above the upload bound. */
export function dbcFileProblem(file: { name: string; size: number }, maxBytes: number = DBC_MAX_BYTES): 'format' | 'size' | null {
  if (!/\.dbc$/i.test(file.name)) return 'format';
  return file.size > maxBytes ? 'size' : null;
}

/** `Message.Signal`, the name the signal API takes. */
export const signalRef = (message: string, signal: string) => `${message}.${signal}`;

export function splitSignalRef(ref: string): { message: string; signal: string } {
  const i = ref.indexOf('.');
  return i < 0 ? { message: ref, signal: '' } : { message: ref.slice(0, i), signal: ref.slice(i + 1) };
}
