import { bigint, boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Remote operations (migrations 0060-0069). The services use raw SQL (state changes are single
 * conditional updates); these definitions document the tables and serve typed ad-hoc queries.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const deviceCommands = pgTable('device_commands', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  correlationId: text('correlation_id').notNull().unique(),
  operationName: text('operation_name').notNull(),
  operationParams: jsonb('operation_params').notNull(),
  description: text('description'),
  headers: jsonb('headers').notNull(),
  envelope: jsonb('envelope').notNull(),
  state: text('state').notNull(),
  code: integer('code'),
  message: text('message'),
  result: jsonb('result'),
  progress: integer('progress'),
  timeoutMs: integer('timeout_ms').notNull(),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
  deliveredAt: ts('delivered_at'),
  answeredAt: ts('answered_at'),
  deadlineAt: ts('deadline_at').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const deviceCommandResponses = pgTable('device_command_responses', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  tenantId: uuid('tenant_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  correlationId: text('correlation_id').notNull(),
  code: integer('code').notNull(),
  message: text('message'),
  payload: jsonb('payload'),
  partial: boolean('partial').notNull().default(false),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const deviceConfigs = pgTable('device_configs', {
  thingsId: uuid('things_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  config: jsonb('config').notNull(),
  source: text('source').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
