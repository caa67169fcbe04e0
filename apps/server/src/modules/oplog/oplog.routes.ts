import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import { opLogRepository } from './oplog.repository.ts';

/** Operation log of one tenant (UserManager/Log); rows are written by the app's onSend hook. */
export function opLogRoutes(app: LoggerheadApp, ctx: AppContext) {
  const repo = opLogRepository(ctx.database.raw);
  route(app, Routes.oplog.list, { tags: ['data-mgmt'], errors: { 403: ErrorResponseSchema } }, async (req) => {
    const auth = requireAuth(req.auth);
    if (req.params.tenant_id !== auth.tenantId) throw forbidden();
    const q = req.query;
    if (q.start_time !== undefined && q.end_time !== undefined && q.start_time > q.end_time) {
      throw new ApiError(400, 'http.400', 'start_time after end_time', { field: 'start_time' });
    }
    if (q.current_page * q.page_size > 10_000) throw new ApiError(400, 'data.over-10000');
    const { total, rows } = await repo.page(
      auth.tenantId,
      {
        userId: q.user_id,
        username: q.username,
        method: q.method,
        from: q.start_time !== undefined ? new Date(q.start_time) : undefined,
        to: q.end_time !== undefined ? new Date(q.end_time) : undefined,
      },
      q.current_page,
      q.page_size,
    );
    return {
      total,
      current_page: q.current_page,
      page_size: q.page_size,
      list: rows.map((r) => ({ ...r, created_at: r.created_at.getTime() })),
    };
  });
}
