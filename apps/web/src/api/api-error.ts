import type { ErrorBody } from '@loggerhead/contract/errors.ts';

/**
 * How a call failed (spec §8 HTTP layer): the server answered with an error status,
 * the request was cancelled by the page, nothing answered (network down or time-out),
 * or the request could not even be made.
 */
export type ApiErrorKind = 'http' | 'canceled' | 'no-response' | 'setup';

export const CANCELED = '(canceled)';
export const NO_RESPONSE = 'NO_RESPONSE';
export const SETUP_ERROR = 'SETUP_ERROR';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    /** HTTP status; 0 when there was no response. */
    readonly status: number,
    /** Normalised error bodies; the first is the one shown. */
    readonly errors: ErrorBody[],
  ) {
    super(errors[0]?.message ?? kind);
    this.name = 'ApiError';
  }

  get code(): string {
    return this.errors[0]?.code ?? SETUP_ERROR;
  }

  static canceled(): ApiError {
    return new ApiError('canceled', 0, [{ code: CANCELED, message: CANCELED }]);
  }

  static noResponse(message = 'No response'): ApiError {
    return new ApiError('no-response', 0, [{ code: NO_RESPONSE, message }]);
  }

  static setup(message: string): ApiError {
    return new ApiError('setup', 0, [{ code: SETUP_ERROR, message }]);
  }

  /** The local permission refusal of spec §6: looks exactly like the server's 403. */
  static forbiddenLocally(): ApiError {
    return new ApiError('http', 403, [{ code: 'http.403', message: 'Not allowed to access' }]);
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export function isCanceled(e: unknown): boolean {
  return (e instanceof ApiError && e.kind === 'canceled') || (e instanceof DOMException && e.name === 'AbortError');
}
