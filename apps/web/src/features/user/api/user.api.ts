import { type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import type {
  CreateSubUserRequest,
  SelfUserDetail,
  SubUser,
  UpdateSelfRequest,
  UpdateSubUserRequest,
} from '@loggerhead/contract/schemas/accounts.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../api/client.ts';

export interface Page<T> {
  total: number;
  current_page: number;
  page_size: number;
  list: T[];
}

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

const users = (tenantId: string) => `/tenant/tenants/${encodeURIComponent(tenantId)}/users`;
const user = (tenantId: string, userId: string) => `${users(tenantId)}/${encodeURIComponent(userId)}`;

/** Sub-users, the caller's own account, the operation log (spec §7 tenant and data services). */
export const userApi = {
  subUsers: (tenantId: string, q: SubUserFilter, signal?: AbortSignal) =>
    api.get<Page<SubUser>>(users(tenantId), { query: { ...q }, signal, permission: 'tenant:user:query' }),
  createSubUser: (tenantId: string, body: CreateSubUserRequest) =>
    api.post<SubUser>(users(tenantId), body, { permission: 'tenant:user:create' }),
  updateSubUser: (tenantId: string, userId: string, body: UpdateSubUserRequest) =>
    api.put<SubUser>(user(tenantId, userId), body, { permission: 'tenant:user:update' }),
  deleteSubUser: (tenantId: string, userId: string) => api.delete<void>(user(tenantId, userId), { permission: 'tenant:user:delete' }),
  resetSubUserPassword: (tenantId: string, userId: string, password?: string) =>
    api.post<void>(`${user(tenantId, userId)}/reset-password`, password ? { password } : {}, { permission: 'tenant:user:reset-password' }),
  devices: (tenantId: string, signal?: AbortSignal) =>
    call(Routes.things.list, {
      params: { tenant_id: tenantId },
      query: { current_page: 1, page_size: DEVICE_PICKER_SIZE, order_param: 'name', order_type: 0 },
      signal,
    }),

  updateSelf: (body: UpdateSelfRequest) => api.put<SelfUserDetail>('/tenant/users/self', body),
  changePassword: (body: { old_password?: string; code?: string; mobile?: string; password: string; confirmPassword: string }) =>
    api.put<void>('/tenant/users/self/password', body),
  changeMobile: (body: { new_mobile: string; new_code: string; old_mobile?: string; area_code: string }) =>
    api.put<void>('/tenant/users/self/mobile', body),
  changeEmail: (body: { email: string; code: string }) => api.put<void>('/tenant/users/self/email', body),
  avatar: (file: File) => {
    const data = new FormData();
    data.append('file', file);
    return api.put<{ avatar: string }>('/tenant/users/self/avatar', data);
  },
  /** Account codes for changes (spec §7 purpose `modify`). */
  sendCode: (type: 1 | 2, destination: string, areaCode?: string) =>
    api.post<void>('/tenant/verification-codes', { type, destination, purpose: 'modify', area_code: type === 1 ? areaCode : undefined }),

  opLogs: (tenantId: string, q: OpLogFilter, signal?: AbortSignal) =>
    call(Routes.oplog.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
};

export const userKeys = {
  all: ['user'] as const,
  subUsers: (tenantId: string | null) => [...userKeys.all, 'sub-users', tenantId] as const,
  subUserList: (tenantId: string | null, q: SubUserFilter) => [...userKeys.subUsers(tenantId), q] as const,
  devices: (tenantId: string | null) => [...userKeys.all, 'devices', tenantId] as const,
  opLogs: (tenantId: string | null, q: OpLogFilter) => [...userKeys.all, 'op-logs', tenantId, q] as const,
};

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
