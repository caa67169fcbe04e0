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
/** A file of a console version, as uploaded (`bytes` -1 and no digest for versions uploaded before the list was kept). */
export const WebFileSchema = z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() });
/**
 * What releasing a version would serve (decision 0206): its files, each against the files served
 * now (`change` null when those are not known), who uploaded it, and its index.html line by line
 * against the one served now (`served` null: the console built with the server).
 */
export const WebReleaseReviewSchema = z.object({
  version: WebVersionSchema,
  uploaded_by: z.object({ username: z.string(), role: z.enum(['manager', 'web-deploy']) }).nullable(),
  files: z.array(WebFileSchema.extend({ change: z.enum(['added', 'changed', 'same']).nullable() })),
  served: z.object({ version: z.string() }).nullable(),
  index_diff: z.array(z.object({ op: z.enum(['=', '+', '-']), line: z.string() })),
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
  /**
   * Console versions (decision 0206): system managers and web-deploy users upload (stage) them; only
   * a system manager releases one; the released one is served at once by every server copy.
   */
  versions: defineRoute({
    method: 'GET',
    path: '/out-web/deploy/web/list',
    response: z.array(WebVersionSchema),
    permission: 'out-web:deploy:query',
  }),
  /**
   * Body: the built console as a multipart .tar.gz (`file`) and, when the server has
   * WEB_BUNDLE_PUBLIC_KEY, its Ed25519 signature (`signature`, base64); query: its version name.
   */
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
  /** What releasing the version would serve: its files and the change of index.html. */
  reviewVersion: defineRoute({
    method: 'GET',
    path: '/out-web/deploy/web/review',
    query: VersionQuery,
    response: WebReleaseReviewSchema,
    permission: 'out-web:deploy:query',
  }),
  /** A system manager only, entering the own password again (`auth.password-error` when wrong). */
  release: defineRoute({
    method: 'POST',
    path: '/out-web/deploy/web/release',
    body: VersionQuery.extend({ password: z.string().min(1).max(128) }),
    response: WebVersionSchema,
    permission: 'out-web:deploy:update',
  }),
  /**
   * Serves again the version released before the current one; null: the console built with the
   * server (nothing was released before). A system manager only.
   */
  rollback: defineRoute({
    method: 'POST',
    path: '/out-web/deploy/web/rollback',
    response: WebVersionSchema.nullable(),
    permission: 'out-web:deploy:update',
  }),
  /** Serves the console built with the server from now on, whatever was released. A system manager only. */
  builtIn: defineRoute({
    method: 'POST',
    path: '/out-web/deploy/web/built-in',
    permission: 'out-web:deploy:update',
  }),
  /** Removing the released version (a system manager only) serves the console built with the server. */
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
