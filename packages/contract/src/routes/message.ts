import { z } from 'zod';
import {
  UnreadCountSchema,
  UserMessagePageSchema,
  UserMessagePathSchema,
  UserMessageQuerySchema,
  UserMessageUpdateResultSchema,
  UserMessageUpdateSchema,
} from '../schemas/message.ts';
import { defineRoute } from './define.ts';

const path = '/tenant/tenants/:tenant_id/users/:user_id/message';

/** Spec §7: GET/PUT /tenant/tenants/{tenant_id}/users/{user_id}/message — the signed-in user's own inbox. */
export const MessageRoutes = {
  list: defineRoute({
    method: 'GET',
    path,
    params: UserMessagePathSchema,
    query: UserMessageQuerySchema,
    response: UserMessagePageSchema,
    signedIn: true,
  }),
  unreadCount: defineRoute({
    method: 'GET',
    path: `${path}/unread-count`,
    params: UserMessagePathSchema,
    query: z.object({ platform: z.coerce.number().int().min(0).max(99).optional() }),
    response: UnreadCountSchema,
    signedIn: true,
  }),
  update: defineRoute({
    method: 'PUT',
    path,
    params: UserMessagePathSchema,
    body: UserMessageUpdateSchema,
    response: UserMessageUpdateResultSchema,
    signedIn: true,
  }),
};
