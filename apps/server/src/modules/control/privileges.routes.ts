import { LoginResponseSchema, PrivilegesSchema, ReauthRequestSchema } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { privilegesOf } from './privileges.service.ts';

/** Privileges of the caller, the password re-confirmation and the experience session. */
export function privilegesRoutes(app: LoggerheadApp, ctx: AppContext) {
  app.get('/v1/control/privileges/self', { schema: { tags: ['control'], response: { 200: PrivilegesSchema } } }, (req) =>
    privilegesOf(ctx.database.raw, requireAuth(req.auth)),
  );

  app.post(
    '/v1/control/reauth',
    { config: { noOpLog: true }, schema: { tags: ['control'], body: ReauthRequestSchema } },
    async (req, reply) => {
      await ctx.control.reauth(requireAuth(req.auth), req.body.password);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/control/sessions/experience',
    { config: { public: true, noOpLog: true }, schema: { tags: ['control'], response: { 200: LoginResponseSchema } } },
    (req) => ctx.control.loginExperience(req.ip, req.headers['user-agent'] ?? null),
  );
}
