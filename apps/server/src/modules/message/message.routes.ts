import { ErrorResponseSchema, type MessageLang, Routes } from '@loggerhead/contract';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { MessageService } from './message.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/** The console language asked for first (Accept-Language: "zh-CN,en;q=0.8" → zh); null when neither. */
export function langOf(header: string | undefined): MessageLang | null {
  for (const part of (header ?? '').split(',')) {
    const tag = part.trim().split(';')[0].toLowerCase();
    if (tag.startsWith('zh')) return 'zh';
    if (tag.startsWith('en')) return 'en';
  }
  return null;
}

/** Spec §7: GET/PUT /tenant/tenants/{tenant_id}/users/{user_id}/message — the signed-in user's own inbox. */
export function messageRoutes(app: App, svc: MessageService) {
  const R = Routes.message;
  const withErrors = { tags: ['message'], errors };
  route(app, R.list, withErrors, (req) =>
    svc.list(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.query, langOf(req.headers['accept-language'])),
  );
  route(app, R.unreadCount, withErrors, (req) =>
    svc.unread(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.query.platform),
  );
  // Reading a message is not an operation worth a log line.
  route(app, R.update, { ...withErrors, config: { noOpLog: true } }, (req) =>
    svc.update(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.body),
  );
}
