/**
 * The error contract of spec §8. Every error body the server sends is
 * `{code, message}` (or an array of them where several fields fail at once).
 * The web client maps `code` to translated text; `message` is a fallback in English.
 */
export interface ErrorBody {
  code: string;
  message: string;
  /** Optional: the field a validation error belongs to (form-level display). */
  field?: string;
  /** Optional machine-readable extras, e.g. seconds left on a lock-out. */
  details?: Record<string, unknown>;
}

export type ErrorResponse = ErrorBody | ErrorBody[];

/** Login and registration codes of spec §8, with their default (English) text. */
export const AuthCodes = {
  '001': 'Please enter the username or the area code and phone number',
  '002': 'Please enter the mobile number',
  '003': 'Login name must be 2-65 characters of letters, digits, underscore or @',
  '004': 'Wrong number of mobile digits',
  '005': 'Password must be 8-16 characters, no Chinese characters and no spaces',
  '006': 'Please enter the password',
  '007': 'This mobile number is already registered',
  '008': 'Username must be 2-20 letters, digits or underscore and not start with a digit',
  '009': 'This username already exists',
  '010': 'Password needs at least two of: upper-case, lower-case, digits, special characters',
  '011': 'The two passwords differ',
  '012': 'Please confirm the password',
  '013': 'Please enter the username',
  '014': 'Please enter the 6-digit code',
  '015': 'Wrong e-mail format',
  '016': 'This e-mail is already registered',
  '017': 'Please enter the e-mail',
  '018': 'Phone verification code invalid or expired, please get a new one',
  '019': 'E-mail verification code invalid or expired, please get a new one',
  '020': 'Invalid merchant ID',
  '021': 'Please enter the 6-digit code',
  '022': 'Please enter the login password',
  'iot-http.409': 'Account conflict, please contact the administrator',
} as const;

/** Other codes named by the spec, with their default text. */
export const KnownCodes = {
  'iot-tenant.10016': 'This account has not been reviewed yet',
  'can-dtu.10005': 'Fault code file does not exist',
  'connection.10000': 'Connection name already exists',
  'iot-things.999991': 'Failed to count devices under the device type',
  'can-dtu-10011': 'Fault code file is in use',
  'can-dtu-10012': 'Name already used',
  'auth.bad-credentials': 'Username or password incorrect',
  'auth.bad-code': 'Code incorrect',
  'auth.phone-not-registered': 'Phone number not registered',
  'auth.locked': 'Too many failed logins with this name: try again in a few minutes',
  'auth.session-expired': 'The session has ended, please log in again',
  'auth.access-withdrawn': 'Access withdrawn: the account, its rights or devices, or its tenant changed',
  'quota.limit-reached': 'Limit reached, go to the user centre to upgrade',
  'things.duplicate-id': 'A device with this ID already exists',
  'things.invalid-id': 'Device ID must be 20 upper-case hexadecimal characters',
  'things.offline': 'Device offline, cannot upgrade',
  'things.busy': 'Repeated operation: wait until the running upgrade finishes',
  'data.over-10000': 'Data over 10000 entries needs a more precise query',
  'uds.canfd-not-supported': 'CAN FD is not supported in UDS on this device',
  'rate.limited': 'Too many requests, try again later',
  'code.too-soon': 'A code was sent less than 60 seconds ago',
  'auth.password-error': 'Password error',
  'oidc.disabled': 'Third-party login is not configured',
  'oidc.not-linked':
    'This third-party account is not linked to any account: log in with your password and link it in the user centre first',
  'oidc.already-linked': 'This third-party account is already linked to another account',
  'oidc.expired': 'The third-party login took too long or was already used, please try again',
  'oidc.failed': 'The third-party login failed, please try again',
  'register.merchant-closed': 'Merchant registration is closed, please contact us by e-mail',
  'notify.failed': 'The message could not be sent, please try again later',
  saveMax: 'At most 30 columns can be chosen',
  'things.invalid-vin': 'VIN must be 17 characters of digits and letters except I, O and Q',
  'things.duplicate-vin': 'A vehicle with this VIN already exists',
  'things.unknown-type': 'Unknown device type',
  'things.bad-channel': 'The device has no such CAN channel',
  'data.bad-range': 'The end time must be after the begin time',
  'data.bad-format': 'The file is not a supported log (candump -L, Vector ASC, BLF, PEAK TRC or ASAM MF4, also gzip-compressed)',
  'data.not-ready': 'The export is not finished yet',
  'data.export-limit': 'The experience account exports at most one hour of data at a time: choose a shorter range',
  'data.export-busy': 'An export of yours is still running: wait for it or cancel it',
  /** A long-running job (export, recall, upgrade, ECU flash…) whose server stopped while it ran. */
  'job.interrupted': 'Interrupted by a server restart',
} as const;

export type KnownCode = keyof typeof AuthCodes | keyof typeof KnownCodes;

/**
 * Close codes of the console's WebSockets when the server ends them: `sessionEnded` — logged out,
 * expired or password changed, sign in again (`auth.session-expired`, or `http.401` at connect);
 * `accessWithdrawn` — the account, its rights or devices, or its tenant changed: no longer allowed
 * (`auth.access-withdrawn`, or the refusal's own code). The socket sends `{t: "error", code, message}`
 * first. A client reconnects after any other close, never after these.
 */
export const SocketClose = { sessionEnded: 4401, accessWithdrawn: 4403 } as const;
export type SocketCloseCode = (typeof SocketClose)[keyof typeof SocketClose];

/** Default code for an HTTP status: `http.{status}` (spec §8). */
export function httpCode(status: number): string {
  return `http.${status}`;
}

export const HttpMessages: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in or the session has expired',
  403: 'Not allowed to access',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

export function defaultMessage(code: string): string {
  if (code in AuthCodes) return AuthCodes[code as keyof typeof AuthCodes];
  if (code in KnownCodes) return KnownCodes[code as keyof typeof KnownCodes];
  const m = /^(?:iot-)?http\.(\d{3})$/.exec(code);
  if (m) return HttpMessages[Number(m[1])] ?? 'Error';
  return 'Error unknown';
}

/**
 * Normalises whatever an error response carried into a list of `{code, message}`
 * as spec §8 describes: code defaults to `http.{status}` and is prefixed `iot-`
 * when it has no service prefix of its own.
 */
export function normaliseErrorBody(status: number, body: unknown): ErrorBody[] {
  const items = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : [];
  const out: ErrorBody[] = [];
  for (const raw of items) {
    const item = raw as Partial<ErrorBody>;
    const code = typeof item.code === 'string' && item.code ? item.code : httpCode(status);
    const message = typeof item.message === 'string' ? item.message : defaultMessage(code);
    out.push({ ...item, code, message } as ErrorBody);
  }
  if (out.length === 0) out.push({ code: httpCode(status), message: defaultMessage(httpCode(status)) });
  return out;
}
