import { bigint, boolean, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tenantPackages = pgTable('tenant_packages', {
  tenantId: uuid('tenant_id').primaryKey(),
  info_model: integer('info_model'),
  things_num: integer('things_num'),
  can_things_num: integer('can_things_num'),
  ies_things_num: integer('ies_things_num'),
  single_data_export: integer('single_data_export'),
  maximum_total_number_documents_stored: integer('maximum_total_number_documents_stored'),
  database_storage_space: integer('database_storage_space'),
  device_file_traffic_management: integer('device_file_traffic_management'),
  alert_sms: integer('alert_sms'),
  alert_tps: integer('alert_tps'),
  sub_user_num: integer('sub_user_num'),
  label_num: integer('label_num'),
  maximum_data_retention_days: integer('maximum_data_retention_days'),
  number_simultaneous_connections: integer('number_simultaneous_connections'),
  up_down_stream_connections: integer('up_down_stream_connections'),
  edge_computing: integer('edge_computing'),
  push_rule: integer('push_rule'),
  push_tps: integer('push_tps'),
  alert_rule: integer('alert_rule'),
  hmi: integer('hmi'),
  data_analysis: integer('data_analysis'),
  twins_rule_on: integer('twins_rule_on'),
  rule_capacity: integer('rule_capacity'),
  max_batch_recall_size: integer('max_batch_recall_size'),
  quick_delete_things_num: integer('quick_delete_things_num'),
  specialStorage: smallint('special_storage').notNull().default(0),
  quickDeleteThingsList: jsonb('quick_delete_things_list')
    .$type<{ third_things_id: string; info_model_name: string; info_model_id: string }[]>()
    .notNull()
    .default([]),
  platform: smallint('platform').notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const tenantStorageUsage = pgTable(
  'tenant_storage_usage',
  {
    tenantId: uuid('tenant_id').notNull(),
    thingsId: uuid('things_id').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.thingsId] })],
);

// Work orders sit with billing because a capacity request is a work order that changes the package.
export const workOrders = pgTable('work_orders', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  identifier: text('identifier').notNull(),
  name: text('name').notNull(),
  feedbackType: text('feedback_type').notNull(),
  belongFunction: text('belong_function').notNull().default(''),
  phone: text('phone').notNull().default(''),
  description: text('description').notNull(),
  status: text('status').notNull().default('pending'),
  initiatorId: uuid('initiator_id'),
  initiatorName: text('initiator_name').notNull(),
  handlerId: uuid('handler_id'),
  handlerName: text('handler_name'),
  remark: text('remark').notNull().default(''),
  capacityRequest: jsonb('capacity_request').$type<Record<string, unknown>>(),
  applied: boolean('applied').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const workOrderHistory = pgTable('work_order_history', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  workOrderId: uuid('work_order_id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  fromStatus: text('from_status'),
  toStatus: text('to_status').notNull(),
  byUserId: uuid('by_user_id'),
  byName: text('by_name').notNull(),
  remark: text('remark').notNull().default(''),
  at: ts('at').notNull().defaultNow(),
});

export const workOrderImages = pgTable('work_order_images', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  uploaderId: uuid('uploader_id'),
  workOrderId: uuid('work_order_id'),
  name: text('name').notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  path: text('path').notNull(),
  position: smallint('position').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
});
