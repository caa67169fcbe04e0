import { boolean, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Tables of migration 0050 (trigger rules, e-fences, alert events, rule states, outbox).
// The services use raw SQL; these definitions document the shapes and serve drizzle queries.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const fences = pgTable('fences', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  name: text('name').notNull(),
  type: text('type').$type<'region' | 'border'>().notNull(),
  region: jsonb('region'),
  border: jsonb('border'),
  description: text('description').notNull().default(''),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const fenceThings = pgTable(
  'fence_things',
  {
    fenceId: uuid('fence_id').notNull(),
    thingsId: uuid('things_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fenceId, t.thingsId] })],
);

export const triggerRules = pgTable('trigger_rules', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  ownerId: uuid('owner_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  name: text('name').notNull(),
  dataType: text('data_type').$type<'raw' | 'signal' | 'fence'>().notNull(),
  channel: smallint('channel'),
  frameFormat: text('frame_format').$type<'standard' | 'extended'>().notNull().default('standard'),
  frameType: text('frame_type').$type<'data' | 'remote'>().notNull().default('data'),
  frameId: integer('frame_id'),
  conditions: jsonb('conditions').notNull().default([]),
  conditionJoin: text('condition_join').$type<'and' | 'or'>().notNull().default('and'),
  status: smallint('status').notNull().default(1),
  level: text('level').$type<'ordinary' | 'urgent'>().notNull().default('ordinary'),
  share: boolean('share').notNull().default(false),
  description: text('description').notNull().default(''),
  alertDescription: text('alert_description').notNull().default(''),
  actions: jsonb('actions').notNull().default({}),
  frequency: jsonb('frequency').notNull().default({}),
  recoverAction: jsonb('recover_action').notNull().default({}),
  fenceId: uuid('fence_id'),
  fenceRule: text('fence_rule').$type<'in' | 'out'>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const alertRuleStates = pgTable(
  'alert_rule_states',
  {
    ruleId: uuid('rule_id').notNull(),
    thingsId: uuid('things_id').notNull(),
    active: boolean('active').notNull(),
    lastEventId: uuid('last_event_id'),
    marks: jsonb('marks').$type<Record<string, number>>().notNull().default({}),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.thingsId] })],
);

export const alertEvents = pgTable('alert_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  ruleId: uuid('rule_id'),
  ruleName: text('rule_name').notNull(),
  ownerId: uuid('owner_id'),
  share: boolean('share').notNull().default(false),
  thingsId: uuid('things_id').notNull(),
  level: text('level').notNull(),
  sourceType: text('source_type').$type<'trigger' | 'fence'>().notNull(),
  eventData: jsonb('event_data').notNull().default({}),
  handler: text('handler'),
  handlerStatus: smallint('handler_status').notNull().default(0),
  handlerDescription: text('handler_description'),
  handledAt: ts('handled_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  recoveredAt: ts('recovered_at'),
});

export const alertOutbox = pgTable('alert_outbox', {
  pushLogId: uuid('push_log_id').primaryKey(),
  nextAt: ts('next_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
