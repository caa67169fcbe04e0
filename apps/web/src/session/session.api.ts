import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { SelfUserDetail } from '@loggerhead/contract/schemas/accounts.ts';
import type { LoginRequest, LoginResponse, Privileges, SelfUser } from '@loggerhead/contract/schemas/session.ts';
import { api, call } from '../api/client.ts';
import type { Customization } from '../api/session-storage.ts';

/** The calls of the session: global config, login/logout, and what the console loads after login (spec §4). */
export const sessionApi = {
  globalConfig: (signal?: AbortSignal) => call(Routes.webConfig.globalConfig, { signal, timeout: 10_000 }),
  login: (body: LoginRequest) => api.post<LoginResponse>('/control/sessions', body, { auth: false }),
  logout: (sessionId: string) => api.delete<void>(`/control/sessions/${encodeURIComponent(sessionId)}`),
  self: (signal?: AbortSignal) => api.get<SelfUser>('/tenant/users/self', { signal }),
  /** The same call read with the personal details (SelfUserDetail). */
  selfDetail: (signal?: AbortSignal) => api.get<SelfUserDetail>('/tenant/users/self', { signal }),
  privileges: (signal?: AbortSignal) => api.get<Privileges>('/control/privileges/self', { signal }),
  tenant: (signal?: AbortSignal) => api.get<Record<string, unknown>>('/tenant/users/self/tenant', { signal }),
  customization: async (tenantId: string, signal?: AbortSignal) =>
    toCustomization(await api.get<unknown>(`/tenant/tenants/${encodeURIComponent(tenantId)}/customization`, { signal })),
  dashboards: (tenantId: string, businessType: string) =>
    call(Routes.dashboard.list, { params: { tenant_id: tenantId }, query: { business_type: businessType } }),
  createDashboard: (tenantId: string, body: { business_type: string; name: string }) =>
    call(Routes.dashboard.create, { params: { tenant_id: tenantId }, body }),
  saveCustomization: (tenantId: string, values: Customization) =>
    api.put<unknown>(
      `/tenant/tenants/${encodeURIComponent(tenantId)}/customization`,
      { data: Object.entries(values).map(([key, value]) => ({ key, value })) },
      { permission: 'tenant:customization:update' },
    ),
};

/**
 * Customisation is a key/value list (spec §3, §7 "body data list of key/value"); accept it
 * bare, wrapped in `data`, or already as an object.
 */
export function toCustomization(body: unknown): Customization {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)
      ? (body as { data: unknown[] }).data
      : null;
  const out: Customization = {};
  if (list) {
    for (const item of list) {
      const { key, value } = (item ?? {}) as { key?: unknown; value?: unknown };
      if (typeof key === 'string' && value !== undefined && value !== null) out[key] = String(value);
    }
    return out;
  }
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
  }
  return out;
}
