import {
  ErrorResponseSchema,
  type MessageLang,
  UnreadCountSchema,
  UserMessagePageSchema,
  UserMessagePathSchema,
  UserMessageQuerySchema,
  UserMessageUpdateResultSchema,
  UserMessageUpdateSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
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
  const url = '/v1/tenant/tenants/:tenant_id/users/:user_id/message';
  app.get(
    url,
    {
      schema: {
        tags: ['message'],
        params: UserMessagePathSchema,
        querystring: UserMessageQuerySchema,
        response: { 200: UserMessagePageSchema, ...errors },
      },
    },
    (req) => svc.list(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.query, langOf(req.headers['accept-language'])),
  );
  app.get(
    `${url}/unread-count`,
    {
      schema: {
        tags: ['message'],
        params: UserMessagePathSchema,
        querystring: z.object({ platform: z.coerce.number().int().min(0).max(99).optional() }),
        response: { 200: UnreadCountSchema, ...errors },
      },
    },
    (req) => svc.unread(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.query.platform),
  );
  app.put(
    url,
    // Reading a message is not an operation worth a log line.
    {
      config: { noOpLog: true },
      schema: {
        tags: ['message'],
        params: UserMessagePathSchema,
        body: UserMessageUpdateSchema,
        response: { 200: UserMessageUpdateResultSchema, ...errors },
      },
    },
    (req) => svc.update(requireAuth(req.auth), req.params.tenant_id, req.params.user_id, req.body),
  );
}
