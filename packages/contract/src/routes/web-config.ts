import { z } from 'zod';
import { UuidSchema } from '../schemas/common.ts';
import { GlobalConfigSchema } from '../schemas/session.ts';
import { defineRoute } from './define.ts';

export const WebVersionSchema = z.object({
  id: UuidSchema,
  version: z.string(),
  description: z.string(),
  file_count: z.number().int(),
  bytes: z.number().int(),
  released: z.boolean(),
  created_at: z.number(),
});
export const WebDeployLogSchema = z.object({
  id: UuidSchema,
  action: z.string(),
  version: z.string(),
  username: z.string(),
  /** Who did it: a system manager or a web-deploy user. */
  role: z.enum(['manager', 'web-deploy']),
  created_at: z.number(),
});
/** A web-deploy user's session token starts with this (a person's session is a JWT, an API key `lhk_`). */
export const WEB_DEPLOY_TOKEN_PREFIX = 'lhw_';
const VersionQuery = z.object({ id: UuidSchema });

/** Spec §7 deploy/config: where the console's resources are served from, and its debug switch. */
export const DeployConfigSchema = z.object({
  resourcePath: z
    .string()
    .trim()
    .max(128)
    .regex(/^\/[\w./-]*$/),
  isDebug: z.union([z.literal(0), z.literal(1)]),
});
/** Spec §7 server/config: the deployment's settings a web deployment reads (names and values as text). */
export const ServerConfigSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\w.-]+$/),
    z.string().max(2000),
  )
  .refine((o) => Object.keys(o).length <= 50, { message: 'at most 50 settings' });
/** A web-deploy user (spec §7 /out-web user): a role of its own that reaches only /out-web. */
export const WebDeployUserSchema = z.object({
  id: UuidSchema,
  username: z.string(),
  created_at: z.number(),
  last_login_at: z.number().nullable(),
});
/** Letters of both cases and digits, 8 to 64 characters (spec §9). */
const DeployPassword = z.string().min(8).max(64).regex(/[a-z]/).regex(/[A-Z]/).regex(/\d/);

/**
 * What the console loads before any navigation or login (spec §2 route guard, §3 global permission
 * info, §7 deploy/config/info).
 */
export const WebConfigRoutes = {
  globalConfig: defineRoute({
    method: 'GET',
    path: '/control/global-config',
    response: GlobalConfigSchema,
    public: true,
  }),
  /** `isDebug` is 1 when the page path contains "debug". */
  deployInfo: defineRoute({
    method: 'GET',
    path: '/out-web/deploy/config/info',
    query: z.object({ path: z.string().optional() }),
    response: z.object({ resourcePath: z.string(), isDebug: z.number().int() }),
    public: true,
  }),
  /** Console versions (system managers); the released one is served at once by every server copy. */
  versions: defineRoute({
    method: 'GET',
    path: '/out-web/deploy/web/list',
    response: z.array(WebVersionSchema),
    permission: 'out-web:deploy:query',
  }),
  /** Body: the built console as a multipart .tar.gz; query: its version name. */
  saveVersion: defineRoute({
    method: 'POST',
    path: '/out-web/deploy/web/save',
    query: z.object({
      version: z
        .string()
        .trim()
        .regex(/^[\w.+-]{1,64}$/),
      description: z.string().max(256).default(''),
    }),
    response: WebVersionSchema,
    status: 201,
    permission: 'out-web:deploy:update',
  }),
  release: defineRoute({
    method: 'POST',
    path: '/out-web/deploy/web/release',
    body: VersionQuery,
    response: WebVersionSchema,
    permission: 'out-web:deploy:update',
  }),
  /** Serves again the version released before the current one. */
  rollback: defineRoute({
    method: 'POST',
    path: '/out-web/deploy/web/rollback',
    response: WebVersionSchema,
    permission: 'out-web:deploy:update',
  }),
  removeVersion: defineRoute({
    method: 'DELETE',
    path: '/out-web/deploy/web/remove',
    query: VersionQuery,
    permission: 'out-web:deploy:update',
  }),
  deployLogs: defineRoute({
    method: 'GET',
    path: '/out-web/log/list',
    response: z.array(WebDeployLogSchema),
    permission: 'out-web:deploy:query',
  }),
  /** The saved deploy configuration (what deploy/config/info answers with). */
  saveDeployConfig: defineRoute({
    method: 'POST',
    path: '/out-web/deploy/config/save',
    body: DeployConfigSchema,
    response: DeployConfigSchema,
    permission: 'out-web:deploy:update',
  }),
  /** The version served now, or null while the console built with the server is served. */
  webInfo: defineRoute({
    method: 'GET',
    path: '/out-web/deploy/web/info',
    response: WebVersionSchema.nullable(),
    permission: 'out-web:deploy:query',
  }),
  serverConfig: defineRoute({
    method: 'GET',
    path: '/out-web/server/config',
    response: ServerConfigSchema,
    permission: 'out-web:deploy:query',
  }),
  /** Replaces the whole server configuration. */
  saveServerConfig: defineRoute({
    method: 'PUT',
    path: '/out-web/server/config',
    body: ServerConfigSchema,
    response: ServerConfigSchema,
    permission: 'out-web:deploy:update',
  }),
  /** Web-deploy users: system managers list, create and delete them. */
  deployUsers: defineRoute({
    method: 'GET',
    path: '/out-web/user/list',
    response: z.array(WebDeployUserSchema),
    permission: 'out-web:deploy:update',
  }),
  createDeployUser: defineRoute({
    method: 'POST',
    path: '/out-web/user/create',
    body: z.object({
      username: z
        .string()
        .trim()
        .regex(/^[\w.@-]{3,64}$/),
      password: DeployPassword,
    }),
    response: WebDeployUserSchema,
    status: 201,
    permission: 'out-web:deploy:update',
  }),
  /** Deletes the user and ends its sessions. */
  deleteDeployUser: defineRoute({
    method: 'DELETE',
    path: '/out-web/user/delete',
    query: z.object({ id: UuidSchema }),
    permission: 'out-web:deploy:update',
  }),
  /**
   * A web-deploy user changes its own password (`old_password` required); a system manager sets
   * any web-deploy user's (`id`). The user's other sessions end.
   */
  updateDeployPassword: defineRoute({
    method: 'PUT',
    path: '/out-web/user/password/update',
    body: z.object({ id: UuidSchema.optional(), old_password: z.string().max(128).optional(), password: DeployPassword }),
    signedIn: true,
  }),
  /** A web-deploy user's session: a token (`lhw_…`) for `Authorization: Bearer` on /out-web only. */
  deployLogin: defineRoute({
    method: 'POST',
    path: '/out-web/user/login',
    body: z.object({ username: z.string().max(64), password: z.string().max(128) }),
    response: z.object({ token: z.string(), username: z.string(), expires_at: z.number() }),
    public: true,
  }),
  deployLogout: defineRoute({
    method: 'POST',
    path: '/out-web/user/logout',
    signedIn: true,
  }),
};
