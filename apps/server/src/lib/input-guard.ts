import type { IncomingMessage } from 'node:http';
import { defaultMessage, type ErrorBody } from '@loggerhead/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * Bad input answered as a 4xx wherever it comes from (docs/decisions/0105-bad-input-is-a-4xx.md):
 * NUL characters and absurd nesting are refused before validation, malformed ids by the route
 * schemas, and what still reaches the database and is refused there is mapped from its SQLSTATE
 * as the last safety net.
 */

/** Largest JSON (or other parsed) request body; uploads have their own limits. */
export const JSON_BODY_LIMIT = 2 * 1024 * 1024;

const NUL = '\u0000';

/**
 * A name of anything (a device, fence, user, rule, file, … — every field whose key ends in `name`:
 * `name`, `nick_name`, `username`, `fenceName`) is one line of visible text: C0 controls (CR, LF,
 * TAB, ESC…), DEL and the C1 controls would break exports, logs, texts sent out and the screens
 * that show it, and no name needs one.
 */
const NAME_KEY = /name$/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether a name holds a control character (what the hook refuses in a request's name fields). */
export const hasControlCharacter = (s: string) => CONTROL.test(s);

/** Deepest nesting of arrays and objects a request may carry; no API body comes near it. */
export const MAX_DEPTH = 64;

/**
 * The first place in a params/query/body value with a string (or key) holding a NUL character, or
 * nested deeper than MAX_DEPTH. Iterative: any depth the JSON parser accepted is walked safely.
 */
export function findBadValue(value: unknown): { field: string; problem: 'nul' | 'depth' | 'control' } | null {
  const stack: { v: unknown; path: string; depth: number; key: string }[] = [{ v: value, path: '', depth: 0, key: '' }];
  while (stack.length) {
    const { v, path, depth, key } = stack.pop() as { v: unknown; path: string; depth: number; key: string };
    if (typeof v === 'string') {
      if (v.includes(NUL)) return { field: path, problem: 'nul' };
      if (NAME_KEY.test(key) && CONTROL.test(v)) return { field: path, problem: 'control' };
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v) || ArrayBuffer.isView(v)) continue;
    if (depth >= MAX_DEPTH) return { field: path, problem: 'depth' };
    if (Array.isArray(v)) {
      // The items of a list of names (`names: [...]`) are names too.
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: path ? `${path}.${i}` : String(i), depth: depth + 1, key });
      continue;
    }
    for (const [k, x] of Object.entries(v)) {
      const at = path ? `${path}.${k}` : k;
      if (k.includes(NUL)) return { field: at.replaceAll(NUL, '\\u0000'), problem: 'nul' };
      stack.push({ v: x, path: at, depth: depth + 1, key: k });
    }
  }
  return null;
}

/**
 * preValidation hook: a NUL character in any string of the path, query or body is a 400 naming the
 * field (PostgreSQL cannot store one in text or jsonb, and no field of the API carries one), and so
 * is a control character in a name (NAME_KEY), and nesting deeper than MAX_DEPTH (which would
 * overflow the stack of whatever serialises it later).
 */
export async function rejectBadInput(req: FastifyRequest): Promise<void> {
  for (const part of [req.params, req.query, req.body]) {
    const bad = findBadValue(part);
    if (!bad) continue;
    const what =
      bad.problem === 'nul'
        ? 'must not contain a NUL character'
        : bad.problem === 'control'
          ? 'a name must not contain control characters (line breaks, tabs, …)'
          : `is nested deeper than ${MAX_DEPTH} levels`;
    throw new ApiError(400, 'http.400', `${bad.field ? `${bad.field}: ` : ''}${what}`, bad.field ? { field: bad.field } : undefined);
  }
}

/** Fastify's `frameworkErrors`: a URL the router cannot read (bad percent-encoding, over-long parameter). */
export function urlError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message = status === 414 ? 'A path parameter is too long' : 'The URL is not valid';
  return reply.code(status).send({ code: `http.${status}`, message });
}

/** Room for a form's boundaries, part headers and small text fields around its file. */
const FORM_OVERHEAD = 64 * 1024;

/**
 * preParsing hook: a multipart upload declaring more bytes than MAX_UPLOAD_MB (plus the form's own
 * overhead) is a 413 before its file is read, whatever the route's own limit (smaller limits of a
 * route, like avatars, still apply to the file itself).
 */
export function multipartLimit(maxBytes: number) {
  const mb = Math.round((maxBytes / 1024 / 1024) * 10) / 10;
  return async (req: FastifyRequest, _reply: unknown, payload: unknown) => {
    const length = Number(req.headers['content-length']);
    if (length > maxBytes + FORM_OVERHEAD && /^multipart\//i.test(req.headers['content-type'] ?? '')) {
      throw new ApiError(413, 'http.413', `The upload is larger than ${mb} MB`, { details: { limit_bytes: maxBytes } });
    }
    return payload;
  };
}

/** SQLSTATEs caused by the values a request carried, never by the server itself: status and message. */
const INPUT_STATES: Record<string, [number, string]> = {
  '22P02': [400, 'A value has the wrong format'],
  '22021': [400, 'Text must not contain NUL or invalid characters'],
  '22P05': [400, 'Text must not contain NUL or invalid characters'],
  '22003': [400, 'A number is out of range'],
  '22007': [400, 'A date or time is not valid'],
  '22008': [400, 'A date or time is out of range'],
  '22001': [400, 'A value is too long'],
  '22023': [400, 'A value is not valid'],
  '22025': [400, 'A search text is not valid'],
  '2201B': [400, 'A pattern is not valid'],
  '22012': [400, 'A value leads to a division by zero'],
  '23502': [400, 'A required value is missing'],
  '23503': [400, 'A value refers to something that does not exist'],
  '23514': [400, 'A value is not allowed'],
  '23505': [409, defaultMessage('http.409')],
  '54000': [400, 'A value is too large'],
  '54001': [400, 'The request is too complex'],
};

/** The SQLSTATE of a database error, also when a driver or ORM wrapped it. */
function sqlState(err: unknown): string | null {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/**
 * A database refusal of the request's values as a 4xx body, or null for any other error. Data
 * exceptions (class 22) the schemas did not catch land here too (22xxx not listed: 400).
 */
export function databaseInputError(err: unknown): { status: number; body: ErrorBody; sqlState: string } | null {
  const state = sqlState(err);
  if (!state) return null;
  const known = INPUT_STATES[state] ?? (state.startsWith('22') ? [400, 'A value is not valid'] : null);
  if (!known) return null;
  const [status, message] = known;
  const column = (err as { column?: unknown }).column;
  return {
    status,
    sqlState: state,
    body: { code: `http.${status}`, message, ...(typeof column === 'string' && column ? { field: column } : {}) },
  };
}

/** Bytes and time spent reading the rest of a refused request's body before the connection is cut. */
const DISCARD_LIMIT = { bytes: 256 * 1024 * 1024, ms: 30_000 };

/** Whether the request has a body that was not read to its end. */
export function bodyUnread(raw: IncomingMessage): boolean {
  if (raw.complete || raw.readableEnded || raw.destroyed) return false;
  return Boolean(raw.headers['content-length'] && raw.headers['content-length'] !== '0') || Boolean(raw.headers['transfer-encoding']);
}

/**
 * An error answered before the request's body was read to its end (too large, refused before or
 * while parsing): the rest is read and thrown away before the answer goes out. The server closes
 * the connection after such an answer, and closing it while the client still writes resets it: a
 * client that sends its whole body before reading would get "connection reset" instead of the
 * answer. Past the bounds (bytes, time) the connection is cut anyway.
 */
export function discardUnreadBody(raw: IncomingMessage, limit = DISCARD_LIMIT): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const stop = (cut: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onEnd);
      raw.off('close', onEnd);
      if (cut) raw.socket?.destroy();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit.bytes) stop(true);
    };
    const onEnd = () => stop(false);
    const timer = setTimeout(() => stop(true), limit.ms);
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onEnd);
    raw.on('close', onEnd);
    // Nothing else may hold the stream back: a multipart parser it was piped into (whose file part
    // nobody reads any more, e.g. a bomb refused half-way) would pause it again at once.
    raw.unpipe();
    raw.resume();
  });
}

const MULTIPART_BROKEN = /multipart data|Boundary not found|Malformed part header|Unexpected end of form/i;

/** A multipart form the parser could not read (cut short, no boundary): a 400 body, or null. */
export function brokenFormError(err: unknown): ErrorBody | null {
  const e = err as { statusCode?: unknown; message?: unknown };
  if (e?.statusCode !== undefined || typeof e?.message !== 'string' || !MULTIPART_BROKEN.test(e.message)) return null;
  return { code: 'http.400', message: 'The multipart form is malformed or cut short' };
}
