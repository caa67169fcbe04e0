import { PutUserConfigRequestSchema, UserConfigEntrySchema, UserConfigListSchema, UserConfigQuerySchema } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { userConfigRepository } from './user-config.repository.ts';
import { userConfigService } from './user-config.service.ts';

/** Per-user settings such as chosen table columns (spec §3, §7 user-self config). */
export function userConfigRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = userConfigService(userConfigRepository(ctx.database.raw));
  app.get(
    '/v1/tenant/users/self/configs',
    { schema: { tags: ['tenant'], querystring: UserConfigQuerySchema, response: { 200: UserConfigListSchema } } },
    (req) => svc.get(requireAuth(req.auth), req.query.keys),
  );
  app.put(
    '/v1/tenant/users/self/configs',
    { config: { noOpLog: true }, schema: { tags: ['tenant'], body: PutUserConfigRequestSchema, response: { 200: UserConfigEntrySchema } } },
    (req) => svc.put(requireAuth(req.auth), req.body.key, req.body.value),
  );
}
