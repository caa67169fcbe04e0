import { Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { privilegesOf } from './privileges.service.ts';

const R = Routes.session;

/** Privileges of the caller, the password re-confirmation and the experience session. */
export function privilegesRoutes(app: LoggerheadApp, ctx: AppContext) {
  route(app, R.privileges, { tags: ['control'] }, (req) => privilegesOf(ctx.database.raw, requireAuth(req.auth)));

  route(app, R.reauth, { tags: ['control'], config: { noOpLog: true } }, async (req, reply) => {
    await ctx.control.reauth(requireAuth(req.auth), req.body.password);
    return reply.code(204).send();
  });

  route(app, R.experience, { tags: ['control'], config: { noOpLog: true } }, (req) =>
    ctx.control.loginExperience(req.ip, req.headers['user-agent'] ?? null),
  );
}
