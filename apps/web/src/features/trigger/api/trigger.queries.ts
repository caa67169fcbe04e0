import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type EventFilter, type RuleListQuery, triggerApi } from './trigger.api.ts';

/** Query keys of trigger rules and alert events (every key of this area is built here). */
export const triggerKeys = {
  all: ['trigger'] as const,
  rules: (tenantId: string | null) => [...triggerKeys.all, tenantId, 'rules'] as const,
  ruleList: (tenantId: string | null, q: RuleListQuery) => [...triggerKeys.rules(tenantId), 'list', q] as const,
  rule: (tenantId: string | null, id: string) => [...triggerKeys.rules(tenantId), 'one', id] as const,
  events: (tenantId: string | null) => [...triggerKeys.all, tenantId, 'events'] as const,
  eventList: (tenantId: string | null, f: EventFilter, page: number, size: number) =>
    [...triggerKeys.events(tenantId), f, page, size] as const,
};

export const ruleListQuery = (tenantId: string | null, q: RuleListQuery) =>
  queryOptions({
    queryKey: triggerKeys.ruleList(tenantId, q),
    queryFn: ({ signal }) => triggerApi.rules(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const ruleQuery = (tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: triggerKeys.rule(tenantId, id),
    queryFn: ({ signal }) => triggerApi.rule(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
  });

export const eventListQuery = (tenantId: string | null, f: EventFilter, page: number, size: number) =>
  queryOptions({
    queryKey: triggerKeys.eventList(tenantId, f, page, size),
    queryFn: ({ signal }) => triggerApi.events(tenantId as string, f, { current_page: page, page_size: size }, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });
