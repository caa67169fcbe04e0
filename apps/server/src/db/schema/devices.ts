import {
  bigint,
  boolean,
  customType,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

export interface ThingChannel {
  index: number;
  typeId?: number | null;
  status?: number | null;
  signalStrategy?: string | null;
}

export interface ThingLabel {
  tenantLabelId: string;
  labelValue: string;
  description?: string | null;
}

export const deviceTypes = pgTable('device_types', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id'),
  name: text('name').notNull(),
  displayName: text('display_name'),
  description: text('description'),
  canChannels: smallint('can_channels').notNull().default(2),
  thingType: smallint('thing_type').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const things = pgTable('things', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  thirdThingsId: text('third_things_id').notNull().unique(),
  name: text('name').notNull(),
  description: text('description'),
  infoModelId: uuid('info_model_id').notNull(),
  thingType: smallint('thing_type').notNull().default(0),
  parentThingsId: uuid('parent_things_id'),
  thingsKey: text('things_key').notNull(),
  labels: jsonb('labels').$type<ThingLabel[]>().notNull().default([]),
  attributes: jsonb('attributes').$type<{ channels?: ThingChannel[] }>().notNull().default({}),
  isOnline: boolean('is_online').notNull().default(false),
  connectionStatus: smallint('connection_status').notNull().default(0),
  digitalTwinThingsStatus: smallint('digital_twin_things_status').notNull().default(0),
  sdCardStatus: text('sd_card_status'),
  firmware: text('firmware'),
  server: text('server'),
  channelEnable: integer('channel_enable').notNull().default(0),
  malformedCount: bigint('malformed_count', { mode: 'number' }).notNull().default(0),
  lastSeenAt: ts('last_seen_at'),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const vehicles = pgTable('vehicles', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  name: text('name').notNull(),
  vin: text('vin'),
  description: text('description'),
  channels: jsonb('channels').$type<{ name: string; things_id: string; channel: number }[]>().notNull().default([]),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const deviceEvents = pgTable('device_events', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  tenantId: uuid('tenant_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  at: ts('at').notNull().defaultNow(),
  kind: text('kind').notNull(),
  message: text('message').notNull(),
  detail: jsonb('detail'),
});

/** Partitioned by range on time_start (µs); see migration 0021. */
export const frameChunks = pgTable('frame_chunks', {
  tenantId: uuid('tenant_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  timeStart: bigint('time_start', { mode: 'number' }).notNull(),
  timeEnd: bigint('time_end', { mode: 'number' }).notNull(),
  session: bigint('session', { mode: 'number' }).notNull(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  frameCount: integer('frame_count').notNull(),
  channelMask: integer('channel_mask').notNull(),
  ids: integer('ids').array().notNull(),
  data: bytea('data').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const storageUsage = pgTable(
  'storage_usage',
  {
    tenantId: uuid('tenant_id').notNull(),
    thingsId: uuid('things_id').notNull(),
    day: date('day').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    frames: bigint('frames', { mode: 'number' }).notNull().default(0),
    chunks: bigint('chunks', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.thingsId, t.day] })],
);

export const downloadTasks = pgTable('download_tasks', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  userId: uuid('user_id'),
  format: text('format').notNull(),
  params: jsonb('params').notNull(),
  status: smallint('status').notNull().default(1),
  processRate: integer('process_rate').notNull().default(0),
  dataCount: bigint('data_count', { mode: 'number' }).notNull().default(0),
  outputCount: bigint('output_count', { mode: 'number' }).notNull().default(0),
  dataBytes: bigint('data_bytes', { mode: 'number' }).notNull().default(0),
  uploadBytes: bigint('upload_bytes', { mode: 'number' }).notNull().default(0),
  estimatedTime: integer('estimated_time').notNull().default(0),
  filePath: text('file_path'),
  fileName: text('file_name'),
  error: text('error'),
  /** The read-only session that started it (experience account): only that session sees it. */
  sessionId: uuid('session_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
  /** The server copy running the export (`server_copies.id`); an export whose copy is gone is failed. */
  owner: uuid('owner'),
});

/** A user's starred devices (spec §3 collected); `sessionId` set for a read-only session's own stars. */
export const userFavouriteThings = pgTable('user_favourite_things', {
  userId: uuid('user_id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  sessionId: uuid('session_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
