import {
  ErrorResponseSchema,
  IdParamSchema,
  NoticeCreateSchema,
  NoticeListQuerySchema,
  NoticePageSchema,
  NoticeSchema,
  NoticeUpdateSchema,
  NoticeUserQuerySchema,
  NoticeUserStateResultSchema,
  NoticeUserStateSchema,
  UserNoticeListSchema,
  UuidSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import type { NoticeService } from './notice.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const Id = IdParamSchema;
const tags = ['notice'];

/** Spec §7 /out-web/notice: system managers write announcements; each user reads the active ones and hides them. */
export function noticeRoutes(app: App, svc: NoticeService) {
  const base = '/v1/out-web/notice';
  app.get(
    base,
    {
      config: { permission: 'out-web:notice:query' },
      schema: { tags, querystring: NoticeListQuerySchema, response: { 200: NoticePageSchema, ...errors } },
    },
    (req) => svc.list(requireAuth(req.auth), req.query),
  );
  app.post(
    base,
    {
      config: { permission: 'out-web:notice:create' },
      schema: { tags, body: NoticeCreateSchema, response: { 201: NoticeSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await svc.create(requireAuth(req.auth), req.body)),
  );
  app.get(
    `${base}/:id`,
    { config: { permission: 'out-web:notice:query' }, schema: { tags, params: Id, response: { 200: NoticeSchema, ...errors } } },
    (req) => svc.get(requireAuth(req.auth), req.params.id),
  );
  app.put(
    `${base}/:id`,
    {
      config: { permission: 'out-web:notice:update' },
      schema: { tags, params: Id, body: NoticeUpdateSchema, response: { 200: NoticeSchema, ...errors } },
    },
    (req) => svc.update(requireAuth(req.auth), req.params.id, req.body),
  );
  app.delete(
    `${base}/:id`,
    { config: { permission: 'out-web:notice:delete' }, schema: { tags, params: Id, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await svc.remove(requireAuth(req.auth), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.put(
    `${base}/:noticeId/user/:userId`,
    {
      config: { noOpLog: true },
      schema: {
        tags,
        params: z.object({ noticeId: UuidSchema, userId: UuidSchema }),
        body: NoticeUserStateSchema,
        response: { 200: NoticeUserStateResultSchema, ...errors },
      },
    },
    (req) => svc.setUserState(requireAuth(req.auth), req.params.noticeId, req.params.userId, req.body.noLongerShow),
  );
  app.get(
    `${base}/user/:userId`,
    {
      schema: {
        tags,
        params: z.object({ userId: UuidSchema }),
        querystring: NoticeUserQuerySchema,
        response: { 200: UserNoticeListSchema, ...errors },
      },
    },
    (req) => svc.activeFor(requireAuth(req.auth), req.params.userId, req.query),
  );
}
