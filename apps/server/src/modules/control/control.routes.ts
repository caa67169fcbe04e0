import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { OpLogRepository } from '../oplog/oplog.repository.ts';
import type { ControlService } from './control.service.ts';

const R = Routes.session;

export function controlRoutes(app: App, svc: ControlService, opLogs: OpLogRepository) {
  const login = {
    tags: ['control'],
    config: { noOpLog: true },
    errors: { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 403: ErrorResponseSchema },
  };
  // Spec §3 login type: 1 password, 2 mobile + SMS code.
  route(app, R.login, login, (req) =>
    req.body.type === 2
      ? svc.loginWithCode(req.body, req.ip, req.headers['user-agent'] ?? null)
      : svc.loginWithPassword(req.body, req.ip, req.headers['user-agent'] ?? null),
  );
  route(app, R.tenantManagerLogin, login, (req) =>
    req.body.type === 2
      ? svc.loginWithCode(req.body, req.ip, req.headers['user-agent'] ?? null)
      : svc.loginWithPassword(req.body, req.ip, req.headers['user-agent'] ?? null, true),
  );
  // Written to the platform's log by the app's hook; the tenant's log gets it here.
  route(app, Routes.superSession.open, { tags: ['control'], errors: login.errors }, async (req) => {
    const auth = requireAuth(req.auth);
    const opened = await svc.openSuperSession(auth, req.body.tenant_id, req.body.read_only, req.ip, req.headers['user-agent'] ?? null);
    await opLogs.insert({
      tenantId: req.body.tenant_id,
      userId: auth.userId,
      username: auth.username,
      method: req.method,
      path: req.routeOptions.url ?? '/v1/control/super-session',
      status: 200,
      ip: req.ip,
      superSession: true,
    });
    return opened;
  });
  route(app, R.monitor, { tags: ['control'], config: { noOpLog: true } }, (req) =>
    svc.openMonitorSession(requireAuth(req.auth), req.ip, req.headers['user-agent'] ?? null),
  );
  route(app, R.logout, { tags: ['control'], config: { noOpLog: true } }, async (req, reply) => {
    await svc.logout(requireAuth(req.auth), req.params.id);
    return reply.code(204).send();
  });
}
