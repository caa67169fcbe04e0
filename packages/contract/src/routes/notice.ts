import { z } from 'zod';
import { UuidSchema } from '../schemas/common.ts';
import {
  NoticeCreateSchema,
  NoticeListQuerySchema,
  NoticePageSchema,
  NoticeSchema,
  NoticeUpdateSchema,
  NoticeUserQuerySchema,
  NoticeUserStateResultSchema,
  NoticeUserStateSchema,
  UserNoticeListSchema,
} from '../schemas/notice.ts';
import { defineRoute, IdParams } from './define.ts';

const base = '/out-web/notice';

/** Spec §7 /out-web/notice: system managers write announcements; each user reads the active ones and hides them. */
export const NoticeRoutes = {
  list: defineRoute({
    method: 'GET',
    path: base,
    query: NoticeListQuerySchema,
    response: NoticePageSchema,
    permission: 'out-web:notice:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: base,
    body: NoticeCreateSchema,
    response: NoticeSchema,
    status: 201,
    permission: 'out-web:notice:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/:id`,
    params: IdParams,
    response: NoticeSchema,
    permission: 'out-web:notice:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/:id`,
    params: IdParams,
    body: NoticeUpdateSchema,
    response: NoticeSchema,
    permission: 'out-web:notice:update',
  }),
  /** Answers 204. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/:id`,
    params: IdParams,
    permission: 'out-web:notice:delete',
  }),
  /** The caller hides an announcement for themself. */
  setUserState: defineRoute({
    method: 'PUT',
    path: `${base}/:noticeId/user/:userId`,
    params: z.object({ noticeId: UuidSchema, userId: UuidSchema }),
    body: NoticeUserStateSchema,
    response: NoticeUserStateResultSchema,
    signedIn: true,
  }),
  /** The announcements that apply to the caller now. */
  activeFor: defineRoute({
    method: 'GET',
    path: `${base}/user/:userId`,
    params: z.object({ userId: UuidSchema }),
    query: NoticeUserQuerySchema,
    response: UserNoticeListSchema,
    signedIn: true,
  }),
};
