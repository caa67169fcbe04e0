import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const R = Routes.alert;
const E = Routes.alertEvents;

export interface RuleListQuery {
  things_id?: string;
  current_page: number;
  page_size: number;
}

/** Filters of the alert event list; times in epoch ms. */
export interface EventFilter {
  things_id?: string;
  begin_time?: number;
  end_time?: number;
  rule_id?: string;
  level?: 'ordinary' | 'urgent';
  handler_status?: number;
}

const tenant = (tenantId: string) => ({ tenant_id: tenantId });
const one = (tenantId: string, id: string) => ({ tenant_id: tenantId, id });

/** Trigger rules (alert-mgmt) and alert events (alert-data-mgmt) of spec §7. */
export const triggerApi = {
  rules: (tenantId: string, q: RuleListQuery, signal?: AbortSignal) => call(R.list, { params: tenant(tenantId), query: { ...q }, signal }),
  rule: (tenantId: string, id: string, signal?: AbortSignal) => call(R.get, { params: one(tenantId, id), signal }),
  create: (tenantId: string, body: RouteBody<typeof R.create>) => call(R.create, { params: tenant(tenantId), body }),
  update: (tenantId: string, id: string, body: RouteBody<typeof R.update>) => call(R.update, { params: one(tenantId, id), body }),
  setStatus: (tenantId: string, id: string, enabled: boolean) =>
    call(R.setStatus, { params: { ...one(tenantId, id), status: enabled ? '1' : '0' } }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: one(tenantId, id) }),
  exportRules: (tenantId: string, thingsId: string) => call(R.exportRules, { params: tenant(tenantId), query: { things_id: thingsId } }),
  importRules: (tenantId: string, thingsId: string, rules: Record<string, unknown>[]) =>
    call(R.importRules, { params: tenant(tenantId), body: { things_id: thingsId, rules } }),

  events: (tenantId: string, f: EventFilter, page: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(E.list, { params: tenant(tenantId), query: { ...f, ...page }, signal }),
  handle: (tenantId: string, id: string, body: RouteBody<typeof E.handle>) => call(E.handle, { params: one(tenantId, id), body }),
  removeEvent: (tenantId: string, id: string) => call(E.remove, { params: one(tenantId, id) }),
  removeAllEvents: (tenantId: string, f: EventFilter) => call(E.removeAll, { params: tenant(tenantId), query: { ...f } }),
};
