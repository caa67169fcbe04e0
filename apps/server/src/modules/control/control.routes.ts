import { ErrorResponseSchema, IdParamSchema, LoginRequestSchema, LoginResponseSchema } from '@loggerhead/contract';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { everyHour } from '../../lib/hourly.ts';
import type { ControlService } from './control.service.ts';

export function controlRoutes(app: App, svc: ControlService) {
  const login = {
    config: { public: true, noOpLog: true },
    schema: {
      tags: ['control'],
      body: LoginRequestSchema,
      response: { 200: LoginResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema, 403: ErrorResponseSchema },
    },
  } as const;
  // Spec §3 login type: 1 password, 2 mobile + SMS code.
  app.post('/v1/control/sessions', login, (req) =>
    req.body.type === 2
      ? svc.loginWithCode(req.body, req.ip, req.headers['user-agent'] ?? null)
      : svc.loginWithPassword(req.body, req.ip, req.headers['user-agent'] ?? null),
  );
  app.post('/v1/control/sessions/tenant-manager', login, (req) =>
    req.body.type === 2
      ? svc.loginWithCode(req.body, req.ip, req.headers['user-agent'] ?? null)
      : svc.loginWithPassword(req.body, req.ip, req.headers['user-agent'] ?? null, true),
  );
  // Ended sessions are deleted a week after they end.
  everyHour(app, 'session sweep', () => svc.purgeEndedSessions());
  app.delete(
    '/v1/control/sessions/:id',
    { config: { noOpLog: true }, schema: { tags: ['control'], params: IdParamSchema } },
    async (req, reply) => {
      await svc.logout(requireAuth(req.auth), req.params.id);
      return reply.code(204).send();
    },
  );
}
