import { defaultMessage, type ErrorBody, httpCode } from '@loggerhead/contract';

/** An error a service throws on purpose: a status, a spec code and a message. */
export class ApiError extends Error {
  readonly body: ErrorBody | ErrorBody[];
  constructor(
    readonly status: number,
    code?: string,
    message?: string,
    extra?: Pick<ErrorBody, 'field' | 'details'>,
  ) {
    const c = code ?? httpCode(status);
    const m = message ?? defaultMessage(c);
    super(m);
    this.name = 'ApiError';
    this.body = { code: c, message: m, ...extra };
  }

  /** Several field errors at once (spec §8 allows an array). */
  static many(status: number, items: ErrorBody[]): ApiError {
    const e = new ApiError(status, items[0]?.code, items[0]?.message);
    (e as { body: ErrorBody | ErrorBody[] }).body = items;
    return e;
  }
}

export const badRequest = (code?: string, message?: string, field?: string) =>
  new ApiError(400, code, message, field ? { field } : undefined);
export const notFound = (what = 'Not found') => new ApiError(404, 'http.404', what);
export const forbidden = (message?: string) => new ApiError(403, 'http.403', message ?? defaultMessage('http.403'));
export const unauthorized = (code = 'http.401', message?: string) => new ApiError(401, code, message);
export const conflict = (code?: string, message?: string, field?: string) =>
  new ApiError(409, code, message, field ? { field } : undefined);
