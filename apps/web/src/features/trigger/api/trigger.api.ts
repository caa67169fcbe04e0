import type {
  AlertEvent,
  AlertEventHandle,
  AlertEventPageSchema,
  TriggerRule,
  TriggerRuleImportResult,
  TriggerRuleInput,
  TriggerRulePageSchema,
} from '@loggerhead/contract/schemas/alert.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';

export type TriggerRulePage = z.infer<typeof TriggerRulePageSchema>;
export type AlertEventPage = z.infer<typeof AlertEventPageSchema>;

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

const rulesPath = (tenantId: string) => `/alert-mgmt/tenants/${encodeURIComponent(tenantId)}/trigger-rules`;
const eventsPath = (tenantId: string) => `/alert-data-mgmt/tenants/${encodeURIComponent(tenantId)}/events`;

export interface RuleExportFile {
  version: 1;
  exported_at: string;
  rules: Record<string, unknown>[];
}

/** Trigger rules (alert-mgmt) and alert events (alert-data-mgmt) of spec §7. */
export const triggerApi = {
  rules: (tenantId: string, q: RuleListQuery, signal?: AbortSignal) =>
    api.get<TriggerRulePage>(rulesPath(tenantId), { signal, query: { ...q }, permission: 'alert:trigger-rule:query' }),
  rule: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<TriggerRule>(`${rulesPath(tenantId)}/${encodeURIComponent(id)}`, { signal, permission: 'alert:trigger-rule:query' }),
  create: (tenantId: string, body: TriggerRuleInput) =>
    api.post<TriggerRule>(rulesPath(tenantId), body, { permission: 'alert:trigger-rule:create' }),
  update: (tenantId: string, id: string, body: TriggerRuleInput) =>
    api.put<TriggerRule>(`${rulesPath(tenantId)}/${encodeURIComponent(id)}`, body, { permission: 'alert:trigger-rule:update' }),
  setStatus: (tenantId: string, id: string, enabled: boolean) =>
    api.put<TriggerRule>(`${rulesPath(tenantId)}/${encodeURIComponent(id)}/status/${enabled ? 1 : 0}`, undefined, {
      permission: 'alert:trigger-rule:updateStatus',
    }),
  remove: (tenantId: string, id: string) =>
    api.delete<{ ok: true }>(`${rulesPath(tenantId)}/${encodeURIComponent(id)}`, { permission: 'alert:trigger-rule:delete' }),
  exportRules: (tenantId: string, thingsId: string) =>
    api.get<RuleExportFile>(`${rulesPath(tenantId)}/export`, { query: { things_id: thingsId }, permission: 'alert:trigger-rule:export' }),
  importRules: (tenantId: string, thingsId: string, rules: Record<string, unknown>[]) =>
    api.post<TriggerRuleImportResult>(
      `${rulesPath(tenantId)}/import`,
      { things_id: thingsId, rules },
      { permission: 'alert:trigger-rule:import' },
    ),

  events: (tenantId: string, f: EventFilter, page: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    api.get<AlertEventPage>(eventsPath(tenantId), { signal, query: { ...f, ...page }, permission: 'alert-data:event:query' }),
  handle: (tenantId: string, id: string, body: AlertEventHandle) =>
    api.put<AlertEvent>(`${eventsPath(tenantId)}/${encodeURIComponent(id)}/handle`, body, { permission: 'alert-data:event:handle' }),
  removeEvent: (tenantId: string, id: string) =>
    api.delete<{ ok: true }>(`${eventsPath(tenantId)}/${encodeURIComponent(id)}`, { permission: 'alert-data:event:delete' }),
  removeAllEvents: (tenantId: string, f: EventFilter) =>
    api.delete<{ deleted: number }>(eventsPath(tenantId), { query: { ...f }, permission: 'alert-data:event:delete' }),
};
