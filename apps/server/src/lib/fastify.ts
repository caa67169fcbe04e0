import type { PermissionKey, RouteDef } from '@loggerhead/contract';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Auth } from './auth.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed. */
    public?: boolean;
    /**
     * `'socket'`: a WebSocket route that checks the session token from its query itself (browsers
     * cannot set headers on a WebSocket); the central hook lets the upgrade through to it.
     */
    auth?: 'socket';
    /** Permission key (`module:resource:action`) checked before the handler; one the contract knows. */
    permission?: PermissionKey;
    /** Not recorded in the operation log even though it changes state (e.g. login). */
    noOpLog?: boolean;
    /** The contract's route this was registered from (`route()`, `socketRoute()`); absent on a route registered directly. */
    route?: RouteDef;
    /** Registered by a plugin (the API docs, the built console's files), not by a module: these are the only routes outside the table. */
    plugin?: boolean;
  }
  interface FastifyRequest {
    auth: Auth | null;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
