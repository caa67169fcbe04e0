import { type RouteBody, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const S = Routes.subUsers;
const Self = Routes.self;

export interface SubUserFilter {
  current_page: number;
  page_size: number;
  username?: string;
  mobile?: string;
}

export type OpLog = RouteResponse<typeof Routes.oplog.list>['list'][number];

export interface OpLogFilter {
  current_page: number;
  page_size: number;
  username?: string;
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  start_time?: number;
  end_time?: number;
}

/** Spec §9: the device picker loads the tenant's devices at once (page size 9999). */
export const DEVICE_PICKER_SIZE = 9999;

const user = (tenantId: string, userId: string) => ({ tenant_id: tenantId, user_id: userId });

/** Sub-users, the caller's own account, the operation log (spec §7 tenant and data services). */
export const userApi = {
  subUsers: (tenantId: string, q: SubUserFilter, signal?: AbortSignal) =>
    call(S.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  createSubUser: (tenantId: string, body: RouteBody<typeof S.create>) => call(S.create, { params: { tenant_id: tenantId }, body }),
  updateSubUser: (tenantId: string, userId: string, body: RouteBody<typeof S.update>) =>
    call(S.update, { params: user(tenantId, userId), body }),
  deleteSubUser: (tenantId: string, userId: string) => call(S.remove, { params: user(tenantId, userId) }),
  resetSubUserPassword: (tenantId: string, userId: string, password?: string) =>
    call(S.resetPassword, { params: user(tenantId, userId), body: password ? { password } : {} }),
  devices: (tenantId: string, signal?: AbortSignal) =>
    call(Routes.things.list, {
      params: { tenant_id: tenantId },
      query: { current_page: 1, page_size: DEVICE_PICKER_SIZE, order_param: 'name', order_type: 0 },
      signal,
    }),

  updateSelf: (body: RouteBody<typeof Self.update>) => call(Self.update, { body }),
  changePassword: (body: RouteBody<typeof Self.changePassword>) => call(Self.changePassword, { body }),
  changeMobile: (body: RouteBody<typeof Self.changeMobile>) => call(Self.changeMobile, { body }),
  changeEmail: (body: RouteBody<typeof Self.changeEmail>) => call(Self.changeEmail, { body }),
  avatar: (file: File) => {
    const data = new FormData();
    data.append('file', file);
    return call(Self.setAvatar, { body: data });
  },
  /** Account codes for changes (spec §7 purpose `modify`). */
  sendCode: (type: 1 | 2, destination: string, areaCode?: string) =>
    call(Routes.registration.sendCode, {
      body: { type, destination, purpose: 'modify', area_code: type === 1 ? areaCode : undefined },
    }),

  roles: (tenantId: string, signal?: AbortSignal) => call(Routes.roles.list, { params: { tenant_id: tenantId }, signal }),
  createRole: (tenantId: string, body: RouteBody<typeof Routes.roles.create>) =>
    call(Routes.roles.create, { params: { tenant_id: tenantId }, body }),
  updateRole: (tenantId: string, id: string, body: RouteBody<typeof Routes.roles.update>) =>
    call(Routes.roles.update, { params: { tenant_id: tenantId, id }, body }),
  removeRole: (tenantId: string, id: string) => call(Routes.roles.remove, { params: { tenant_id: tenantId, id } }),
  userRoles: (tenantId: string, userId: string, signal?: AbortSignal) =>
    call(Routes.roles.userRoles, { params: user(tenantId, userId), signal }),
  /** What a sub-user holds now: its own and its roles' keys and menus (spec §7 control privileges). */
  userPrivileges: (tenantId: string, userId: string, signal?: AbortSignal) =>
    call(Routes.roles.userPrivileges, { params: user(tenantId, userId), signal }),
  setUserRoles: (tenantId: string, userId: string, roleIds: string[]) =>
    call(Routes.roles.setUserRoles, { params: user(tenantId, userId), body: { role_ids: roleIds } }),

  opLogs: (tenantId: string, q: OpLogFilter, signal?: AbortSignal) =>
    call(Routes.oplog.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
};

export const userKeys = {
  all: ['user'] as const,
  subUsers: (tenantId: string | null) => [...userKeys.all, 'sub-users', tenantId] as const,
  subUserList: (tenantId: string | null, q: SubUserFilter) => [...userKeys.subUsers(tenantId), q] as const,
  devices: (tenantId: string | null) => [...userKeys.all, 'devices', tenantId] as const,
  opLogs: (tenantId: string | null, q: OpLogFilter) => [...userKeys.all, 'op-logs', tenantId, q] as const,
  roles: (tenantId: string | null) => [...userKeys.all, 'roles', tenantId] as const,
  userRoles: (tenantId: string | null, userId: string) => [...userKeys.roles(tenantId), 'of', userId] as const,
  userPrivileges: (tenantId: string | null, userId: string) => [...userKeys.roles(tenantId), 'holds', userId] as const,
};

export const rolesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: userKeys.roles(tenantId),
    queryFn: ({ signal }) => userApi.roles(tenantId as string, signal),
    enabled: Boolean(tenantId),
  });

export const subUserListQuery = (tenantId: string | null, q: SubUserFilter) =>
  queryOptions({
    queryKey: userKeys.subUserList(tenantId, q),
    queryFn: ({ signal }) => userApi.subUsers(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const devicesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: userKeys.devices(tenantId),
    queryFn: ({ signal }) => userApi.devices(tenantId as string, signal),
    enabled: Boolean(tenantId),
    staleTime: 60_000,
  });

export const opLogQuery = (tenantId: string | null, q: OpLogFilter) =>
  queryOptions({
    queryKey: userKeys.opLogs(tenantId, q),
    queryFn: ({ signal }) => userApi.opLogs(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });
