// The route groups one by one, not the whole table: this module is part of the first load (/Login).
import { SessionRoutes } from '@loggerhead/contract/routes/control.ts';
import { DashboardRoutes } from '@loggerhead/contract/routes/dashboard.ts';
import { CustomizationRoutes, SelfRoutes } from '@loggerhead/contract/routes/tenant.ts';
import { WebConfigRoutes } from '@loggerhead/contract/routes/web-config.ts';
import type { LoginRequest } from '@loggerhead/contract/schemas/session.ts';
import type { CustomizationKey } from '@loggerhead/contract/schemas/tenant.ts';
import { call } from '../api/client.ts';
import type { Customization } from '../api/session-storage.ts';

/** The calls of the session: global config, login/logout, and what the console loads after login (spec §4). */
export const sessionApi = {
  globalConfig: (signal?: AbortSignal) => call(WebConfigRoutes.globalConfig, { signal, timeout: 10_000 }),
  login: (body: LoginRequest) => call(SessionRoutes.login, { body }),
  /** A read-only, short-lived session of this account for a monitor window (its address carries the token). */
  monitor: () => call(SessionRoutes.monitor, {}),
  logout: (sessionId: string) => call(SessionRoutes.logout, { params: { id: sessionId } }),
  self: (signal?: AbortSignal) => call(SelfRoutes.get, { signal }),
  /** The same call, read for the personal details. */
  selfDetail: (signal?: AbortSignal) => call(SelfRoutes.get, { signal }),
  privileges: (signal?: AbortSignal) => call(SessionRoutes.privileges, { signal }),
  tenant: (signal?: AbortSignal) => call(SelfRoutes.tenant, { signal }),
  customization: async (tenantId: string, signal?: AbortSignal) =>
    toCustomization(await call(CustomizationRoutes.get, { params: { tenant_id: tenantId }, signal })),
  dashboards: (tenantId: string, businessType: string) =>
    call(DashboardRoutes.list, { params: { tenant_id: tenantId }, query: { business_type: businessType } }),
  createDashboard: (tenantId: string, body: { business_type: string; name: string }) =>
    call(DashboardRoutes.create, { params: { tenant_id: tenantId }, body }),
  /** The server refuses a key it does not know (400). */
  saveCustomization: (tenantId: string, values: Customization) =>
    call(CustomizationRoutes.put, {
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
