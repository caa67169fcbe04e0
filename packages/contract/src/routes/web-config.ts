import { z } from 'zod';
import { GlobalConfigSchema } from '../schemas/session.ts';
import { defineRoute } from './define.ts';

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
};
