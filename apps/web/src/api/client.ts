import { apiBase, Timeouts } from '@loggerhead/contract/api.ts';
import { normaliseErrorBody } from '@loggerhead/contract/errors.ts';
import { isAllowedByMap, type PermissionKey } from '@loggerhead/contract/permissions.ts';
import {
  type HttpRouteDef,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  routePath,
} from '@loggerhead/contract/routes/define.ts';
import type { z } from 'zod';
import { currentLang } from '../i18n/setup.ts';
import { ApiError } from './api-error.ts';
import { clearSession, getPermissionMap, getToken } from './session-storage.ts';

export type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** JSON body, or FormData for multipart uploads. */
  body?: unknown;
  signal?: AbortSignal;
  /** Milliseconds; spec §7 default 30 s. */
  timeout?: number;
  /** Permission key `module:resource:action` (spec §6), checked against the stored map before sending. */
  permission?: PermissionKey;
  /** Send the bearer token (default). The session call and public calls do not. */
  auth?: boolean;
}

/** Called when an authenticated call answers 401; the app points it at the router (go to /Login). */
let onUnauthorized: () => void = () => {
  if (globalThis.location && !globalThis.location.pathname.startsWith('/Login')) globalThis.location.assign('/Login');
};

export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/** The session ended elsewhere (a live socket was closed for it): forget it and go to the login page. */
export function sessionLost(): void {
  clearSession();
  onUnauthorized();
}

/** `/api` on localhost (the dev proxy), `/v1` elsewhere (spec §7). */
export function baseUrl(): string {
  return apiBase(globalThis.location?.hostname ?? 'localhost');
}

export function buildUrl(path: string, query?: Query): string {
  const origin = globalThis.location?.origin ?? 'http://localhost';
  const url = new URL(`${baseUrl()}${path.startsWith('/') ? path : `/${path}`}`, origin);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
    else url.searchParams.set(k, String(v));
  }
  return url.toString();
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  if (opts.permission && !isAllowedByMap(getPermissionMap(), opts.permission)) throw ApiError.forbiddenLocally();
  if (opts.signal?.aborted) throw ApiError.canceled();

  // The console language: the server answers texts it keeps in both (in-app messages) in it.
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': currentLang() };
  const token = opts.auth === false ? null : getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }

  const timeout = AbortSignal.timeout(opts.timeout ?? Timeouts.default);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), { method: opts.method ?? 'GET', headers, body, signal });
  } catch (e) {
    if (opts.signal?.aborted) throw ApiError.canceled();
    if (timeout.aborted) throw ApiError.noResponse('Timed out');
    if (e instanceof TypeError) throw ApiError.noResponse(e.message);
    throw ApiError.setup(e instanceof Error ? e.message : String(e));
  }

  let data: unknown;
  try {
    data = await readBody(res);
  } catch (e) {
    if (opts.signal?.aborted) throw ApiError.canceled();
    throw ApiError.noResponse(e instanceof Error ? e.message : String(e));
  }
  if (res.ok) return data as T;

  if (res.status === 401 && token) sessionLost();
  throw new ApiError('http', res.status, normaliseErrorBody(res.status, data));
}

type Opts = Omit<RequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, opts?: Opts) => request<T>(path, { ...opts, method: 'GET' }),
  post: <T>(path: string, body?: unknown, opts?: Opts) => request<T>(path, { ...opts, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, opts?: Opts) => request<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, opts?: Opts) => request<T>(path, { ...opts, method: 'PATCH', body }),
  delete: <T>(path: string, opts?: Opts & { body?: unknown }) => request<T>(path, { ...opts, method: 'DELETE' }),
};

/** The arguments of a call to a route of the table: what its schemas take, nothing more. */
export type CallArgs<R extends HttpRouteDef> = Pick<RequestOptions, 'signal' | 'timeout'> &
  (R['params'] extends z.ZodType ? { params: RouteParams<R> } : { params?: undefined }) &
  (R['query'] extends z.ZodType ? { query?: RouteQuery<R> } : { query?: undefined }) &
  // A route without a body schema takes a file (FormData) or nothing.
  (R['body'] extends z.ZodType ? { body: RouteBody<R> } : { body?: FormData });

/**
 * The address of a route of the table for a browser navigation (a link, not a fetch): its path with
 * the parameters filled in, and its query.
 */
export function routeUrl<R extends HttpRouteDef>(route: R, args: Pick<CallArgs<R>, 'params' | 'query'>): string {
  return buildUrl(routePath(route, args.params as RouteParams<R>), args.query as Query | undefined);
}

/**
 * Calls a route of the contract's table: its method, its path with the parameters filled in, its
 * permission key checked against the stored map; the answer typed from its response schema. A
 * public route is called without the token (the console calls them before login, or with a
 * session that may have ended: its 401 must not end the session here).
 */
export function call<R extends HttpRouteDef>(route: R, args: CallArgs<R>): Promise<RouteResponse<R>> {
  return request<RouteResponse<R>>(routePath(route, args.params as RouteParams<R>), {
    method: route.method,
    query: args.query as Query | undefined,
    body: args.body,
    signal: args.signal,
    timeout: args.timeout,
    permission: route.permission,
    auth: route.public !== true,
  });
}
