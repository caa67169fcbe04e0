import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import { z } from 'zod';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { NoticeService } from './notice.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const tags = ['notice'];
const withErrors = { tags, errors };

/** Spec §7 /out-web/notice: system managers write announcements; each user reads the active ones and hides them. */
export function noticeRoutes(app: App, svc: NoticeService) {
  const R = Routes.notice;
  route(app, R.list, withErrors, (req) => svc.list(requireAuth(req.auth), req.query));
  route(app, R.create, withErrors, async (req, reply) => reply.code(201).send(await svc.create(requireAuth(req.auth), req.body)));
  route(app, R.get, withErrors, (req) => svc.get(requireAuth(req.auth), req.params.id));
  route(app, R.update, withErrors, (req) => svc.update(requireAuth(req.auth), req.params.id, req.body));
  route(app, R.remove, { tags, errors: { 204: z.null(), ...errors } }, async (req, reply) => {
    await svc.remove(requireAuth(req.auth), req.params.id);
    return reply.code(204).send(null);
  });
  route(app, R.setUserState, { ...withErrors, config: { noOpLog: true } }, (req) =>
    svc.setUserState(requireAuth(req.auth), req.params.noticeId, req.params.userId, req.body.noLongerShow),
  );
  route(app, R.activeFor, withErrors, (req) => svc.activeFor(requireAuth(req.auth), req.params.userId, req.query));
}
