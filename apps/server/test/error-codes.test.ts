import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultMessage, type ErrorCode, ErrorCodes, errorStatus, isErrorCode } from '@loggerhead/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, badRequest, conflict, unauthorized } from '../src/lib/errors.ts';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

interface Site {
  code: string;
  /** The status the throw site sends, where the call names it. */
  status?: number;
  at: string;
}

/**
 * Code literals of the server: handed to `ApiError` and the throw helpers (`badRequest`, `conflict`,
 * `unauthorized`, `fieldError`, the modules' own `err`/`fail`/`alertError`/`fenceError`/`taken`), or
 * written as `code: '…'` in an error body, a socket message or a job's result.
 */
const PATTERNS: { re: RegExp; status?: number }[] = [
  { re: /new ApiError\(\s*(\d{3})\s*,\s*'([^']+)'/g },
  { re: /\bbadRequest\(\s*'([^']+)'/g, status: 400 },
  { re: /\bconflict\(\s*'([^']+)'/g, status: 409 },
  { re: /\bunauthorized\(\s*'([^']+)'/g, status: 401 },
  { re: /\bApiError\.of\(\s*'([^']+)'/g },
  { re: /\b(?:alertError|fenceError|err|fail)\(\s*(\d{3})\s*,\s*'([^']+)'/g },
  { re: /\b(?:fail|taken|fieldError)\(\s*'([^']+)'/g },
  { re: /\bfail\(\s*[A-Z_]+\s*,\s*'([^']+)'/g },
  { re: /\[code, message\] = \['([^']+)'/g },
  { re: /\bcode:\s*'([^']+)'/g },
];

const sites: Site[] = sources(src).flatMap((file) => {
  const text = fs.readFileSync(file, 'utf8');
  return PATTERNS.flatMap(({ re, status }) =>
    [...text.matchAll(re)].map((m) => ({
      code: m.length > 2 ? m[2] : m[1],
      status: m.length > 2 ? Number(m[1]) : status,
      at: `${path.relative(src, file)}:${text.slice(0, m.index).split('\n').length}`,
    })),
  );
});

describe('the error registry', () => {
  it('finds the throw sites of the server (the scan reads what it should)', () => {
    expect(sites.length).toBeGreaterThan(200);
    expect(sites.map((s) => s.code)).toEqual(expect.arrayContaining(['uds.negative-response', 'auth.bad-credentials', '007', 'http.404']));
  });

  it('holds every code the server throws or sends', () => {
    const missing = sites.filter((s) => !isErrorCode(s.code)).map((s) => `${s.code} at ${s.at}`);
    expect(missing).toEqual([]);
  });

  it('fixes a status only where every throw site sends that status', () => {
    const wrong = sites
      .filter((s) => s.status !== undefined && isErrorCode(s.code))
      .filter((s) => {
        const fixed = errorStatus(s.code as ErrorCode);
        return fixed !== undefined && fixed !== s.status;
      })
      .map((s) => `${s.code} sent as ${s.status} at ${s.at}, registry says ${errorStatus(s.code as ErrorCode)}`);
    expect(wrong).toEqual([]);
  });

  it('is the one place of each default text: no throw site repeats it word for word', () => {
    const repeats = sources(src).flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const re =
        /(?:new ApiError\(\s*\d{3}\s*,\s*|badRequest\(\s*|conflict\(\s*|unauthorized\(\s*|fieldError\(\s*)'([^']+)'\s*,\s*(?:[\w.]+\s*,\s*)?'([^']*)'/g;
      return [...text.matchAll(re)]
        .filter((m) => isErrorCode(m[1]) && ErrorCodes[m[1]].message === m[2])
        .map((m) => `${m[1]} at ${path.relative(src, file)}:${text.slice(0, m.index).split('\n').length}`);
    });
    expect(repeats).toEqual([]);
  });

  it('keeps the spellings of the codes of spec §8', () => {
    const spec = [
      ...Array.from({ length: 22 }, (_, i) => String(i + 1).padStart(3, '0')),
      'iot-http.409',
      'iot-tenant.10016',
      'can-dtu.10005',
      'can-dtu-10011',
      'can-dtu-10012',
      'connection.10000',
      'iot-things.999991',
      'saveMax',
    ];
    expect(spec.filter((c) => !isErrorCode(c))).toEqual([]);
  });

  it('gives every code a default text and an HTTP status, where fixed, of 4xx or 5xx', () => {
    for (const [code, entry] of Object.entries(ErrorCodes) as [ErrorCode, { message: string; status?: number }][]) {
      expect(entry.message.trim(), code).not.toBe('');
      if (entry.status !== undefined) expect(entry.status, code).toBeGreaterThanOrEqual(400);
      const http = /^http\.(\d{3})$/.exec(code);
      if (http) expect(entry.status, code).toBe(Number(http[1]));
    }
  });

  it('is where default messages come from; a throw site may still be more specific', () => {
    expect(defaultMessage('mapping.dbc-in-use')).toBe('The DBC file is bound to a device channel');
    expect(defaultMessage('iot-http.404')).toBe('Not found');
    expect(defaultMessage('http.418')).toBe('Error');
    expect(defaultMessage('no.such-code')).toBe('Error unknown');
    expect(badRequest('ecu.no-firmware').body).toEqual({ code: 'ecu.no-firmware', message: 'The ECU has no firmware package' });
    expect(conflict('fence.in-use', 'The e-fence is used by 2 trigger rules', 'id').body).toEqual({
      code: 'fence.in-use',
      message: 'The e-fence is used by 2 trigger rules',
      field: 'id',
    });
    expect(unauthorized().body).toEqual({ code: 'http.401', message: 'Not signed in or the session has expired' });
    expect(new ApiError(404).body).toEqual({ code: 'http.404', message: 'Not found' });
  });

  it("sends a code with its registry status: an ECU's negative answer is a 422", () => {
    const e = ApiError.of('uds.negative-response', undefined, { details: { nrc: 0x31, name: 'requestOutOfRange' } });
    expect(e.status).toBe(422);
    expect(e.body).toEqual({
      code: 'uds.negative-response',
      message: 'The ECU refused the request',
      details: { nrc: 0x31, name: 'requestOutOfRange' },
    });
    expect(() => ApiError.of('job.interrupted')).toThrow(/no fixed status/);
  });
});
