import { z } from 'zod';
import type { PermissionKey } from '../permissions.ts';
import { TenantIdParamsSchema, TenantParamsSchema, TenantThingParamsSchema, UuidSchema } from '../schemas/common.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One API route as both sides see it: the server registers it (method, URL, schemas, permission
 * key), the web client calls it (path filled from `params`, the key checked against the stored map,
 * the answer typed from `response`).
 *
 * `path` is the Fastify pattern below the API base (`/v1` on the server, `/v1` or `/api` in the
 * browser), with `:name` segments matching the keys of `params`. `response` is the body of the
 * success answer (200 unless `status` says otherwise); a route without one answers with no body
 * or with something that is not JSON (a file).
 */
export interface RouteSpec {
  method: HttpMethod;
  path: `/${string}`;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** Success status of `response` (default 200). */
  status?: 200 | 201 | 202;
  permission?: PermissionKey;
  /** No token needed (the server's test lists why). */
  public?: true;
  /** Any signed-in user, no key: the handler scopes it to the caller (the server's test lists why). */
  signedIn?: true;
  /**
   * A WebSocket (`GET`, upgraded): browsers cannot set headers on one, so the session token comes in
   * the query and the socket checks it itself, and `permission` when it names one; it refuses over the
   * socket (close codes), not with an HTTP answer. Its messages are described beside it.
   */
  socket?: true;
}

/** An HTTP route of the table: it names a permission key, or says it is public or open to any signed-in user. */
export type HttpRouteDef = RouteSpec &
  (
    | { permission: PermissionKey; public?: undefined; signedIn?: undefined; socket?: undefined }
    | { public: true; permission?: undefined; signedIn?: undefined; socket?: undefined }
    | { signedIn: true; permission?: undefined; public?: undefined; socket?: undefined }
  );

/** A WebSocket of the table; `permission` is the key the socket itself checks, if any. */
export type SocketRouteDef = RouteSpec & {
  method: 'GET';
  socket: true;
  permission?: PermissionKey;
  public?: undefined;
  signedIn?: undefined;
  body?: undefined;
  response?: undefined;
};

export type RouteDef = HttpRouteDef | SocketRouteDef;

/** Declares a route; the literal types (method, path, schemas) are kept for both sides. */
export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

/** Path parameters shared by the routes (one schema per shape, not one per route file). */
export const TenantParams = TenantParamsSchema;
export const TenantIdParams = TenantIdParamsSchema;
/** A device of a tenant: `/tenants/:tenant_id/things/:things_id`. */
export const DeviceParams = TenantThingParamsSchema;
/** Something of a device: `/tenants/:tenant_id/things/:things_id/…/:id`. */
export const DeviceIdParams = TenantThingParamsSchema.extend({ id: UuidSchema });
export const IdParams = z.object({ id: UuidSchema });
/** A user of a tenant: `/tenant/tenants/:tenant_id/users/:user_id`. */
export const TenantUserParams = TenantParamsSchema.extend({ user_id: UuidSchema });
/** A CAN channel of a device: `/tenants/:tenant_id/things/:things_id/channels/:channel`. */
export const DeviceChannelParams = TenantThingParamsSchema.extend({ channel: z.coerce.number().int().min(0).max(255) });

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the path parameters of a route are given as (before the server's parsing). */
export type RouteParams<R extends RouteSpec> = Input<R['params']>;
export type RouteQuery<R extends RouteSpec> = Input<R['query']>;
export type RouteBody<R extends RouteSpec> = Input<R['body']>;
/** The body of the success answer, as the server sends it. */
export type RouteResponse<R extends RouteSpec> = R['response'] extends z.ZodType ? z.output<R['response']> : undefined;
/** The parsed parameters, as the server's handler sees them. */
export type ParsedParams<R extends RouteSpec> = Output<R['params']>;

/** `/things/tenants/:tenant_id` + `{ tenant_id: 'a b' }` → `/things/tenants/a%20b`. */
export function routePath<R extends RouteSpec>(route: R, params: RouteParams<R>): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === null) throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return encodeURIComponent(String(v));
  });
}
