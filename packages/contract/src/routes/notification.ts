import { pageOf } from '../schemas/common.ts';
import { PushLogQuerySchema, PushLogSchema } from '../schemas/notification.ts';
import { defineRoute } from './define.ts';

/** Notification push log (spec §7 notification, §9 page 1 size 10): every code and notice sent out. */
export const NotificationRoutes = {
  pushLogs: defineRoute({
    method: 'GET',
    path: '/notification/push-logs',
    query: PushLogQuerySchema,
    response: pageOf(PushLogSchema),
    permission: 'notification:push-log:query',
  }),
};
