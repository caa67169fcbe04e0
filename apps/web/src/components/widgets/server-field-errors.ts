import type { ErrorBody } from '@loggerhead/contract/errors.ts';
import { ApiError } from '../../api/api-error.ts';

/**
 * Spec §8 answers a form with `{code, message, field}` or an array of them. This spreads
 * them over the form's items: `fields` maps a server field name to the form's name (for
 * names that differ, e.g. `destination` → `mobile`); errors whose field the form does not
 * have, or that carry none, are `general`.
 */
export interface SpreadErrors {
  fields: { name: string; codes: ErrorBody[] }[];
  general: ErrorBody[];
}

/** The server's English texts for the two code failures it names (spec §8: recognised during registration). */
const MESSAGE_CODES: [RegExp, string][] = [
  [/invalid sms verification code/i, '018'],
  [/invalid e-?mail verification code/i, '019'],
];

/** A body whose code is missing or generic but whose message names a known failure gets that code. */
export function recognise(body: ErrorBody): ErrorBody {
  for (const [re, code] of MESSAGE_CODES) {
    if (re.test(body.message) && !/^\d{3}$/.test(body.code)) return { ...body, code };
  }
  return body;
}

export function spreadErrors(err: unknown, known: readonly string[], rename: Record<string, string> = {}): SpreadErrors {
  const out: SpreadErrors = { fields: [], general: [] };
  if (!(err instanceof ApiError) || err.kind !== 'http') return out;
  const byName = new Map<string, ErrorBody[]>();
  for (const raw of err.errors) {
    const body = recognise(raw);
    const name = body.field ? (rename[body.field] ?? body.field) : undefined;
    if (name && known.includes(name)) byName.set(name, [...(byName.get(name) ?? []), body]);
    else out.general.push(body);
  }
  out.fields = [...byName].map(([name, codes]) => ({ name, codes }));
  return out;
}

/** The text of one error body: its code's translation, else the server's message. */
export function bodyText(body: ErrorBody, t: (key: string) => string, has: (key: string) => boolean): string {
  for (const code of [body.code, body.code.replace(/^iot-/, ''), `iot-${body.code}`]) {
    if (has(`errors.${code}`)) return t(`errors.${code}`);
  }
  return body.message || t('errors.unknown');
}
