import { defaultMessage, type ErrorBody, type ErrorCode, errorStatus, httpCode } from '@loggerhead/contract';

/**
 * An error a service throws on purpose: a status, a code of the contract's registry and a message
 * (the registry's text unless the throw site has a more specific one). An unknown code fails `tsc`.
 */
export class ApiError extends Error {
  readonly body: ErrorBody | ErrorBody[];
  constructor(
    readonly status: number,
    code?: ErrorCode,
    message?: string,
    extra?: Pick<ErrorBody, 'field' | 'details'>,
  ) {
    const c = code ?? httpCode(status);
    const m = message ?? defaultMessage(c);
    super(m);
    this.name = 'ApiError';
    this.body = { code: c, message: m, ...extra };
  }

  /** A code whose status the registry fixes (e.g. `uds.negative-response` is always a 422). */
  static of(code: ErrorCode, message?: string, extra?: Pick<ErrorBody, 'field' | 'details'>): ApiError {
    const status = errorStatus(code);
    if (status === undefined) throw new Error(`${code} has no fixed status`);
    return new ApiError(status, code, message, extra);
  }

  /** Several field errors at once (spec §8 allows an array). */
  static many(status: number, items: ErrorBody[]): ApiError {
    const e = new ApiError(status, undefined, items[0]?.message);
    (e as { body: ErrorBody | ErrorBody[] }).body = items;
    return e;
  }
}

export const badRequest = (code?: ErrorCode, message?: string, field?: string) =>
  new ApiError(400, code, message, field ? { field } : undefined);
export const notFound = (what = 'Not found') => new ApiError(404, 'http.404', what);
export const forbidden = (message?: string) => new ApiError(403, 'http.403', message);
export const unauthorized = (code: ErrorCode = 'http.401', message?: string) => new ApiError(401, code, message);
export const conflict = (code?: ErrorCode, message?: string, field?: string) =>
  new ApiError(409, code, message, field ? { field } : undefined);
