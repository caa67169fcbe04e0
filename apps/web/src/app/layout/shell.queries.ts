import { BillingRoutes } from '@loggerhead/contract/routes/billing.ts';
import type { RouteBody, RouteQuery } from '@loggerhead/contract/routes/define.ts';
import { MessageRoutes } from '@loggerhead/contract/routes/message.ts';
import { NoticeRoutes } from '@loggerhead/contract/routes/notice.ts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** Spec §9: messages are polled every minute. */
export const MESSAGE_POLL_MS = 60_000;
const NOTICE_POLL_MS = 5 * 60_000;
/** Spec §9: the over-capacity flag is polled every 5 minutes. */
export const USAGE_POLL_MS = 300_000;

export const shellKeys = {
  all: ['shell'] as const,
  notices: (userId: string | null) => [...shellKeys.all, 'notices', userId] as const,
  messages: () => [...shellKeys.all, 'messages'] as const,
  unread: (tenantId: string | null, userId: string | null) => [...shellKeys.messages(), 'unread', tenantId, userId] as const,
  messagePage: (tenantId: string | null, userId: string | null, page: number) =>
    [...shellKeys.messages(), 'page', tenantId, userId, page] as const,
  usage: (tenantId: string | null) => [...shellKeys.all, 'usage', tenantId] as const,
};

const M = MessageRoutes;
const N = NoticeRoutes;

export const shellApi = {
  activeNotices: (userId: string, signal?: AbortSignal) =>
    call(N.activeFor, { params: { userId }, query: { currentTime: String(Date.now()) }, signal }),
  hideNotice: (noticeId: string, userId: string) => call(N.setUserState, { params: { noticeId, userId }, body: { noLongerShow: true } }),
  messages: (tenantId: string, userId: string, query: RouteQuery<typeof M.list>, signal?: AbortSignal) =>
    call(M.list, { params: { tenant_id: tenantId, user_id: userId }, query, signal }),
  updateMessages: (tenantId: string, userId: string, body: RouteBody<typeof M.update>) =>
    call(M.update, { params: { tenant_id: tenantId, user_id: userId }, body }),
  usage: (tenantId: string, signal?: AbortSignal) =>
    call(BillingRoutes.usage, { params: { tenant_id: tenantId }, signal, timeout: 120_000 }),
};

/** The announcements that apply to this user now (both kinds); failures leave the bar hidden. */
export const activeNoticesQuery = (userId: string | null) =>
  queryOptions({
    queryKey: shellKeys.notices(userId),
    queryFn: ({ signal }) => (userId ? shellApi.activeNotices(userId, signal) : Promise.resolve([])),
    enabled: Boolean(userId),
    refetchInterval: NOTICE_POLL_MS,
    meta: { silent: true },
  });

/**
 * Unread messages, polled every minute (spec §9): the page carries the badge count, and
 * its dialog-mode entries pop up (spec §4).
 */
export const unreadMessagesQuery = (tenantId: string | null, userId: string | null) =>
  queryOptions({
    queryKey: shellKeys.unread(tenantId, userId),
    queryFn: ({ signal }) =>
      tenantId && userId ? shellApi.messages(tenantId, userId, { current_page: 1, page_size: 10, read_status: 0 }, signal) : null,
    enabled: Boolean(tenantId && userId),
    refetchInterval: MESSAGE_POLL_MS,
    meta: { silent: true },
  });

/** One page (10, spec §9) of the inbox, read and unread. */
export const messagePageQuery = (tenantId: string | null, userId: string | null, page: number) =>
  queryOptions({
    queryKey: shellKeys.messagePage(tenantId, userId, page),
    queryFn: ({ signal }) =>
      tenantId && userId ? shellApi.messages(tenantId, userId, { current_page: page, page_size: 10, read_status: 3 }, signal) : null,
    enabled: Boolean(tenantId && userId),
  });

/** Cloud-disk usage of the tenant (spec §2 capacity dialog; usage call time-out 120 s, spec §7). */
export const usageQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: shellKeys.usage(tenantId),
    queryFn: ({ signal }) => (tenantId ? shellApi.usage(tenantId, signal) : Promise.resolve(null)),
    enabled: Boolean(tenantId),
    refetchInterval: USAGE_POLL_MS,
    meta: { silent: true },
  });
