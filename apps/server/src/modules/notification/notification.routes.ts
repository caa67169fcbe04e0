import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { forbidden } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { pushLogRepository } from './notification.repository.ts';

/** Notification push log (spec §7 notification, §9 page 1 size 10): every code and notice sent out. */
export function notificationRoutes(root: LoggerheadApp, ctx: AppContext) {
  const app = root as unknown as App;
  const repo = pushLogRepository(ctx.database.raw);
  route(app, Routes.notification.pushLogs, { tags: ['notification'], errors: { 403: ErrorResponseSchema } }, async (req) => {
    // Defence in depth: the push log holds every verification code sent; system managers only,
    // whatever the central check decided.
    if (!req.auth?.systemManager) throw forbidden();
    const q = req.query;
    const { total, rows } = await repo.page(q, q.current_page, q.page_size);
    return {
      total,
      current_page: q.current_page,
      page_size: q.page_size,
      list: rows.map((r) => ({ ...r, created_at: r.created_at.getTime(), sent_at: r.sent_at ? r.sent_at.getTime() : null })),
    };
  });
}
