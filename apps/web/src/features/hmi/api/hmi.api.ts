import { type RouteBody, type RouteQuery, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const H = Routes.hmi;

export type HmiScreenBody = RouteBody<typeof H.create>;

/** HMI screens of the tenant, their HMI users, and the screens the signed-in user opens (`/out-hmi`). */
export const hmiApi = {
  list: (tenantId: string, query: RouteQuery<typeof H.list>, signal?: AbortSignal) =>
    call(H.list, { params: { tenant_id: tenantId }, query, signal }),
  get: (tenantId: string, id: string, signal?: AbortSignal) => call(H.get, { params: { tenant_id: tenantId, id }, signal }),
  create: (tenantId: string, body: HmiScreenBody) => call(H.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: HmiScreenBody) => call(H.update, { params: { tenant_id: tenantId, id }, body }),
  remove: (tenantId: string, id: string) => call(H.remove, { params: { tenant_id: tenantId, id } }),
  publish: (tenantId: string, id: string) => call(H.publish, { params: { tenant_id: tenantId, id } }),
  unpublish: (tenantId: string, id: string) => call(H.unpublish, { params: { tenant_id: tenantId, id } }),
  users: async (tenantId: string, signal?: AbortSignal) => (await call(H.users, { params: { tenant_id: tenantId }, signal })).list,
  setUserScreens: (tenantId: string, userId: string, screenIds: string[]) =>
    call(H.setUserScreens, { params: { tenant_id: tenantId, user_id: userId }, body: { screen_ids: screenIds } }),
  mine: async (tenantId: string, signal?: AbortSignal) => (await call(H.mine, { params: { tenant_id: tenantId }, signal })).list,
  open: (tenantId: string, id: string, signal?: AbortSignal) => call(H.open, { params: { tenant_id: tenantId, id }, signal }),
  press: (tenantId: string, id: string, widgetId: string) =>
    call(H.press, { params: { tenant_id: tenantId, id }, body: { widget_id: widgetId }, timeout: 20_000 }),
  twin: (tenantId: string, thingsId: string, signal?: AbortSignal) =>
    call(Routes.twin.get, { params: { tenant_id: tenantId, things_id: thingsId }, signal }),
  /** A property's reported values over time: what a trend shows before the first live value. */
  propertyHistory: (tenantId: string, thingsId: string, query: RouteQuery<typeof Routes.twin.history>, signal?: AbortSignal) =>
    call(Routes.twin.history, { params: { tenant_id: tenantId, things_id: thingsId }, query, signal }),
};

export const hmiKeys = {
  all: ['hmi'] as const,
  list: (tenantId: string | null, page: number, size: number, keyword: string) =>
    [...hmiKeys.all, 'list', tenantId, page, size, keyword] as const,
  screen: (tenantId: string | null, id: string) => [...hmiKeys.all, 'screen', tenantId, id] as const,
  open: (tenantId: string | null, id: string) => [...hmiKeys.all, 'open', tenantId, id] as const,
  users: (tenantId: string | null) => [...hmiKeys.all, 'users', tenantId] as const,
  mine: (tenantId: string | null) => [...hmiKeys.all, 'mine', tenantId] as const,
  twin: (tenantId: string | null, thingsId: string) => [...hmiKeys.all, 'twin', tenantId, thingsId] as const,
};
