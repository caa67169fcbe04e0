import { askedLang, ErrorResponseSchema, Routes } from '@loggerhead/contract';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { MessageService } from './message.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/** Spec §7: GET/PUT /tenant/tenants/{tenant_id}/users/{user_id}/message — the signed-in user's own inbox. */
export function messageRoutes(app: App, svc: MessageService) {
  const R = Routes.message;
  const withErrors = { tags: ['message'], errors };
  route(app, R.list, withErrors, (req) =>
    svc.list(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.query, askedLang(req.headers['accept-language'])),
  );
  route(app, R.unreadCount, withErrors, (req) =>
    svc.unread(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.query.platform),
  );
  // Reading a message is not an operation worth a log line.
  route(app, R.update, { ...withErrors, config: { noOpLog: true } }, (req) =>
    svc.update(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.body),
  );
}
