import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { LoginRequest } from '@loggerhead/contract/schemas/session.ts';
import type { CustomizationKey } from '@loggerhead/contract/schemas/tenant.ts';
import { call } from '../api/client.ts';
import type { Customization } from '../api/session-storage.ts';

/** The calls of the session: global config, login/logout, and what the console loads after login (spec §4). */
export const sessionApi = {
  globalConfig: (signal?: AbortSignal) => call(Routes.webConfig.globalConfig, { signal, timeout: 10_000 }),
  login: (body: LoginRequest) => call(Routes.session.login, { body }),
  logout: (sessionId: string) => call(Routes.session.logout, { params: { id: sessionId } }),
  self: (signal?: AbortSignal) => call(Routes.self.get, { signal }),
  /** The same call, read for the personal details. */
  selfDetail: (signal?: AbortSignal) => call(Routes.self.get, { signal }),
  privileges: (signal?: AbortSignal) => call(Routes.session.privileges, { signal }),
  tenant: (signal?: AbortSignal) => call(Routes.self.tenant, { signal }),
  customization: async (tenantId: string, signal?: AbortSignal) =>
    toCustomization(await call(Routes.customization.get, { params: { tenant_id: tenantId }, signal })),
  dashboards: (tenantId: string, businessType: string) =>
    call(Routes.dashboard.list, { params: { tenant_id: tenantId }, query: { business_type: businessType } }),
  createDashboard: (tenantId: string, body: { business_type: string; name: string }) =>
    call(Routes.dashboard.create, { params: { tenant_id: tenantId }, body }),
  /** The server refuses a key it does not know (400). */
  saveCustomization: (tenantId: string, values: Customization) =>
    call(Routes.customization.put, {
      params: { tenant_id: tenantId },
      body: { data: Object.entries(values).map(([key, value]) => ({ key: key as CustomizationKey, value })) },
    }),
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
