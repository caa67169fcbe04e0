import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const R = Routes.projects;

export type ProjectInput = RouteBody<typeof R.create>;
export type ProjectBind = RouteBody<typeof R.bind>;
export type ProjectUnbind = RouteBody<typeof R.unbind>;
export interface PageQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

/** Projects (spec §1, §7): devices, groups, vehicles and sub-users of a project. */
export const projectApi = {
  list: (tenantId: string, q: PageQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  create: (tenantId: string, body: ProjectInput) => call(R.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: ProjectInput) => call(R.update, { params: { tenant_id: tenantId, id }, body }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenant_id: tenantId, id } }),
  devices: (tenantId: string, id: string, q: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(R.things, { params: { tenant_id: tenantId, id }, query: { ...q }, signal }),
  members: (tenantId: string, id: string, signal?: AbortSignal) => call(R.members, { params: { tenant_id: tenantId, id }, signal }),
  bind: (tenantId: string, id: string, body: ProjectBind) => call(R.bind, { params: { tenant_id: tenantId, id }, body }),
  unbind: (tenantId: string, id: string, body: ProjectUnbind) => call(R.unbind, { params: { tenant_id: tenantId, id }, body }),
  /** What the pickers offer: the tenant's devices, groups, vehicles and sub-users. */
  things: async (tenantId: string, signal?: AbortSignal) =>
    (
      await call(Routes.things.list, {
        params: { tenant_id: tenantId },
        query: { current_page: 1, page_size: 9999, order_param: 'name', order_type: 0 },
        signal,
      })
    ).list.map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` })),
  groups: async (tenantId: string, signal?: AbortSignal) =>
    (await call(Routes.groups.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 1000 }, signal })).list.map(
      (g) => ({ value: g.id, label: g.name }),
    ),
  vehicles: async (tenantId: string, signal?: AbortSignal) =>
    (
      await call(Routes.things.vehicles, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 10000 }, signal })
    ).list.map((v) => ({ value: v.id, label: v.vin ? `${v.name} (${v.vin})` : v.name })),
  users: async (tenantId: string, signal?: AbortSignal) =>
    (await call(Routes.subUsers.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 1000 }, signal })).list.map(
      (u) => ({ value: u.id, label: u.nick_name ? `${u.username} (${u.nick_name})` : u.username }),
    ),
};

export type PickerKind = 'things' | 'groups' | 'vehicles' | 'users';

export const projectKeys = {
  all: ['projects'] as const,
  list: (tenantId: string | null, q: PageQuery) => [...projectKeys.all, 'list', tenantId, q] as const,
  project: (tenantId: string | null, id: string) => [...projectKeys.all, 'one', tenantId, id] as const,
  devices: (tenantId: string | null, id: string, q: object) => [...projectKeys.project(tenantId, id), 'devices', q] as const,
  members: (tenantId: string | null, id: string) => [...projectKeys.project(tenantId, id), 'members'] as const,
  picker: (tenantId: string | null, kind: PickerKind) => [...projectKeys.all, 'picker', tenantId, kind] as const,
};

export const projectListQuery = (tenantId: string | null, q: PageQuery) =>
  queryOptions({
    queryKey: projectKeys.list(tenantId, q),
    queryFn: ({ signal }) => projectApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const projectDevicesQuery = (tenantId: string | null, id: string | null, q: { current_page: number; page_size: number }) =>
  queryOptions({
    queryKey: projectKeys.devices(tenantId, id ?? '', q),
    queryFn: ({ signal }) => projectApi.devices(tenantId as string, id as string, q, signal),
    enabled: Boolean(tenantId && id),
    placeholderData: keepPreviousData,
  });

export const projectMembersQuery = (tenantId: string | null, id: string | null) =>
  queryOptions({
    queryKey: projectKeys.members(tenantId, id ?? ''),
    queryFn: ({ signal }) => projectApi.members(tenantId as string, id as string, signal),
    enabled: Boolean(tenantId && id),
  });

export const pickerQuery = (tenantId: string | null, kind: PickerKind, enabled: boolean) =>
  queryOptions({
    queryKey: projectKeys.picker(tenantId, kind),
    queryFn: ({ signal }) => projectApi[kind](tenantId as string, signal),
    enabled: Boolean(tenantId) && enabled,
  });
