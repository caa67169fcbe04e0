import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/api-error.ts';
import { bodyText, recognise, spreadErrors } from './server-field-errors.ts';

const http = (status: number, errors: { code: string; message: string; field?: string }[]) => new ApiError('http', status, errors);

describe('spreading server errors over a form', () => {
  it('puts each error on the form item its field names, renamed where the form differs', () => {
    const err = http(400, [
      { code: '007', message: 'taken', field: 'mobile' },
      { code: '009', message: 'taken', field: 'username' },
      { code: '005', message: 'bad', field: 'destination' },
    ]);
    const s = spreadErrors(err, ['mobile', 'username'], { destination: 'mobile' });
    expect(s.fields).toEqual([
      { name: 'mobile', codes: [expect.objectContaining({ code: '007' }), expect.objectContaining({ code: '005' })] },
      { name: 'username', codes: [expect.objectContaining({ code: '009' })] },
    ]);
    expect(s.general).toEqual([]);
  });

  it('keeps errors for fields the form lacks, and those without a field, as general', () => {
    const s = spreadErrors(
      http(409, [
        { code: 'iot-http.409', message: 'conflict' },
        { code: 'x', message: 'y', field: 'other' },
      ]),
      ['mobile'],
    );
    expect(s.fields).toEqual([]);
    expect(s.general.map((b) => b.code)).toEqual(['iot-http.409', 'x']);
  });

  it('ignores failures that are not server answers', () => {
    expect(spreadErrors(ApiError.noResponse(), ['mobile'])).toEqual({ fields: [], general: [] });
  });

  it('recognises the server texts for bad codes even without their number', () => {
    expect(recognise({ code: 'http.400', message: 'invalid SMS verification code' }).code).toBe('018');
    expect(recognise({ code: 'http.400', message: 'invalid Email verification code' }).code).toBe('019');
    expect(recognise({ code: '014', message: 'invalid SMS verification code' }).code).toBe('014');
  });

  it('translates by code, with or without the iot- prefix, else shows the message', () => {
    const known = new Set(['errors.http.409', 'errors.007']);
    const t = (k: string) => `T(${k})`;
    const has = (k: string) => known.has(k);
    expect(bodyText({ code: 'iot-http.409', message: 'm' }, t, has)).toBe('T(errors.http.409)');
    expect(bodyText({ code: '007', message: 'm' }, t, has)).toBe('T(errors.007)');
    expect(bodyText({ code: 'weird', message: 'plain text' }, t, has)).toBe('plain text');
  });
});
