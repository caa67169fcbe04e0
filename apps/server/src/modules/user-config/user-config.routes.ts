import { Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { userConfigRepository } from './user-config.repository.ts';
import { userConfigService } from './user-config.service.ts';

/** Per-user settings such as chosen table columns (spec §3, §7 user-self config). */
export function userConfigRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = userConfigService(userConfigRepository(ctx.database.raw));
  const tags = ['tenant'];
  route(app, Routes.userConfig.get, { tags }, (req) => svc.get(requireAuth(req.auth), req.query.keys));
  route(app, Routes.userConfig.put, { tags, config: { noOpLog: true } }, (req) =>
    svc.put(requireAuth(req.auth), req.body.key, req.body.value),
  );
}
