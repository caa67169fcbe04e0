import type { HttpRouteDef, RouteParams, RouteSpec, SocketRouteDef } from '@loggerhead/contract';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import type { App } from './fastify.ts';

/** The server answers the API below `/v1` (the table's paths are below the API base). */
export const API_PREFIX = '/v1';

type Schema<S> = S extends z.ZodType ? S : undefined;

/** The Fastify schema a route of the table stands for (what the zod type provider types the handler from). */
export type RouteSchema<R extends RouteSpec> = {
  params: Schema<R['params']>;
  querystring: Schema<R['query']>;
  body: Schema<R['body']>;
  response: R['response'] extends z.ZodType ? Record<R['status'] extends number ? R['status'] : 200, R['response']> : undefined;
};

/** A handler of a route of the table: params, query and body typed from its schemas, the answer from `response`. */
export type RouteHandlerFor<R extends RouteSpec> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  RouteSchema<R>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** What only the server says about a route. */
export interface RouteOptions {
  /** OpenAPI tags. */
  tags?: string[];
  /** OpenAPI request content types of a route whose body is not JSON (e.g. `multipart/form-data`). */
  consumes?: string[];
  /** Error answers, by status: documented and serialized with these schemas. */
  errors?: Record<number, z.ZodType>;
  /** Route config besides the permission key (which comes from the table). */
  config?: Omit<FastifyContextConfig, 'permission' | 'public' | 'auth' | 'route'>;
  bodyLimit?: number;
}

/**
 * Registers a route of the contract's table: method, URL, params/querystring/body/response schemas
 * and `config.permission` (or `config.public`; nothing for a `signedIn` route) all come from `def`; the handler is
 * typed from them. `config.route` keeps `def`, so the security test can match what the router has to the table.
 */
export function route<const R extends HttpRouteDef>(app: App, def: R, handler: RouteHandlerFor<R>): void;
export function route<const R extends HttpRouteDef>(app: App, def: R, options: RouteOptions, handler: RouteHandlerFor<R>): void;
export function route<const R extends HttpRouteDef>(
  app: App,
  def: R,
  optionsOrHandler: RouteOptions | RouteHandlerFor<R>,
  maybeHandler?: RouteHandlerFor<R>,
): void {
  const options: RouteOptions = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  const handler = (typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler) as RouteHandlerFor<R>;

  const schema: Record<string, unknown> = {};
  if (options.tags) schema.tags = options.tags;
  if (options.consumes) schema.consumes = options.consumes;
  if (def.params) schema.params = def.params;
  if (def.query) schema.querystring = def.query;
  if (def.body) schema.body = def.body;
  if (def.response || options.errors) {
    schema.response = { ...(def.response ? { [def.status ?? 200]: def.response } : {}), ...options.errors };
  }
  const config: FastifyContextConfig = { ...options.config, route: def };
  if (def.public) config.public = true;
  else if (def.permission) config.permission = def.permission;

  app.route({
    method: def.method,
    url: `${API_PREFIX}${def.path}`,
    schema,
    config,
    ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
    handler: handler as unknown as RouteHandlerMethod<
      RawServerDefault,
      RawRequestDefaultExpression,
      RawReplyDefaultExpression,
      RouteGenericInterface,
      ContextConfigDefault,
      Record<string, unknown>,
      ZodTypeProvider
    >,
  });
}

/** The handler of a WebSocket of the table: the socket, and the request with its path parameters and token. */
export type SocketHandlerFor<R extends SocketRouteDef> = (
  socket: WebSocket,
  req: FastifyRequest<{ Params: RouteParams<R> & Record<string, string>; Querystring: { token?: string } }>,
) => void | Promise<void>;

/**
 * Registers a WebSocket of the contract's table (`socket: true`): the central hook lets the upgrade
 * through (`config.auth: 'socket'`) and the handler checks the token of the query, and the route's
 * key if it names one. No schema is registered: a socket refuses over the socket (close codes), not
 * with an HTTP 400, so the parameters reach the handler as the strings of the path.
 */
export function socketRoute<const R extends SocketRouteDef>(app: App, def: R, handler: SocketHandlerFor<R>): void {
  app.get(`${API_PREFIX}${def.path}`, { websocket: true, config: { auth: 'socket', route: def }, schema: { hide: true } }, (socket, req) =>
    handler(socket, req as unknown as Parameters<SocketHandlerFor<R>>[1]),
  );
}
