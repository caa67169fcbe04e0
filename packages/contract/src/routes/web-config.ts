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
  created_at: z.number(),
});
const VersionQuery = z.object({ id: UuidSchema });

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
};
