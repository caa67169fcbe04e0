import { type ErrorBody, ErrorCodes } from '@loggerhead/contract/errors.ts';
import { ApiError, CANCELED, isCanceled } from './api-error.ts';

type Translate = (key: string, opts?: { defaultValue?: string }) => string;

/**
 * The text shown for an error (spec §8): the translation of its code, else the
 * server's message, else "error unknown". A 5xx never shows server internals.
 */
export function errorText(err: unknown, t: Translate, has: (key: string) => boolean): string {
  if (!(err instanceof ApiError)) return t('errors.unknown');
  const first = err.errors[0];
  const code = first?.code ?? '';
  for (const candidate of codeCandidates(code, err.status)) {
    if (has(`errors.${candidate}`)) return withDetails(t(`errors.${candidate}`), first, t, has);
  }
  if (err.status >= 500) return t(`errors.http.${err.status}`, { defaultValue: t('errors.unknown') });
  if (first?.message && first.message !== CANCELED) return first.message;
  return t('errors.unknown');
}

/**
 * An ECU's negative answer (`uds.negative-response`, details `{ nrc, name }`) names the NRC and
 * what it means, e.g. "The ECU refused the request — Request out of range (NRC 0x31)".
 */
function withDetails(text: string, body: ErrorBody | undefined, t: Translate, has: (key: string) => boolean): string {
  const nrc = body?.code === 'uds.negative-response' ? body.details?.nrc : undefined;
  if (typeof nrc !== 'number') return text;
  const name = typeof body?.details?.name === 'string' ? body.details.name : '';
  const meaning = name && has(`errors.nrc.${name}`) ? t(`errors.nrc.${name}`) : name;
  const hex = `0x${nrc.toString(16).toUpperCase().padStart(2, '0')}`;
  return `${text} — ${meaning ? `${meaning} ` : ''}(NRC ${hex})`;
}

/** `iot-http.409` and `http.409` name the same thing; an unknown code falls back to its status. */
function codeCandidates(code: string, status: number): string[] {
  const out = [code];
  if (code.startsWith('iot-')) out.push(code.slice(4));
  else out.push(`iot-${code}`);
  if (status && !code.startsWith('http.') && !/^(iot-)?http\./.test(code)) out.push(`http.${status}`);
  return out.filter((c, i) => c && out.indexOf(c) === i);
}

/** Codes by their English text: a job's reason column holds the text of a known code. */
const codeOfText = new Map<string, string>(Object.entries(ErrorCodes).map(([code, e]) => [e.message, code]));

/**
 * The text of a long-running job's failure reason (export, quick delete, back-fill, ECU upgrade):
 * translated when it is the text of a known code (e.g. `job.interrupted`, a server restart),
 * else as the server wrote it. Empty when there is no reason.
 */
export function reasonText(reason: string | null | undefined, t: Translate, has: (key: string) => boolean): string {
  if (!reason) return '';
  const code = codeOfText.get(reason);
  return code && has(`errors.${code}`) ? t(`errors.${code}`) : reason;
}

export interface Notifier {
  error: (text: string) => void;
}

let notifier: Notifier = { error: (text) => console.error(text) };
let translate: { t: Translate; has: (key: string) => boolean } = { t: (k) => k, has: () => false };

/** The app plugs in Ant Design's message API and the i18n instance once they exist. */
export function configureErrorFunnel(opts: { notifier?: Notifier; t?: Translate; has?: (key: string) => boolean }): void {
  if (opts.notifier) notifier = opts.notifier;
  if (opts.t && opts.has) translate = { t: opts.t, has: opts.has };
}

/** A notice for a known error code (a live socket the server ended): its translation, else `message`. */
export function reportCode(code: string, message?: string): void {
  const key = `errors.${code}`;
  notifier.error(translate.has(key) ? translate.t(key) : message || translate.t('errors.unknown'));
}

/**
 * The one error funnel: every failed call that nobody handled on the spot ends here.
 * Aborted requests are ignored; a 401 has already sent the browser to /Login.
 */
export function reportError(err: unknown): void {
  if (isCanceled(err)) return;
  if (err instanceof ApiError && err.status === 401 && err.kind === 'http') return;
  notifier.error(errorText(err, translate.t, translate.has));
}
