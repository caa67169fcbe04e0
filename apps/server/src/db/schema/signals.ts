import {
  bigint,
  customType,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

// Tables of migrations 0040 (DBC files, strategies, channel bindings) and 0041 (decoded signals).
// The hot paths use raw SQL; these definitions document the shapes and serve drizzle queries.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

export interface DbcWarningRow {
  line: number;
  col: number;
  reason: string;
}

export const dbcFiles = pgTable('dbc_files', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  name: text('name').notNull(),
  protocol: smallint('protocol').notNull().default(2),
  fileName: text('file_name').notNull(),
  content: text('content').notNull(),
  size: integer('size').notNull(),
  messageCount: integer('message_count').notNull(),
  signalCount: integer('signal_count').notNull(),
  summary: jsonb('summary').notNull(),
  warnings: jsonb('warnings').$type<DbcWarningRow[]>().notNull().default([]),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const signalStrategies = pgTable('signal_strategies', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  name: text('name').notNull(),
  nickname: text('nickname'),
  description: text('description'),
  dbcId: uuid('dbc_id').notNull(),
  signals: jsonb('signals').$type<{ message: string; signal: string }[]>().notNull(),
  remark: text('remark'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const channelDbcBindings = pgTable(
  'channel_dbc_bindings',
  {
    tenantId: uuid('tenant_id').notNull(),
    thingsId: uuid('things_id').notNull(),
    channel: smallint('channel').notNull(),
    dbcId: uuid('dbc_id').notNull(),
    strategyId: uuid('strategy_id'),
    /** 1 started, 0 paused. */
    state: smallint('state').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.thingsId, t.channel] })],
);

export const signalSeries = pgTable('signal_series', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  tenantId: uuid('tenant_id').notNull(),
  thingsId: uuid('things_id').notNull(),
  channel: smallint('channel').notNull(),
  message: text('message').notNull(),
  signal: text('signal').notNull(),
  unit: text('unit').notNull().default(''),
  firstTs: bigint('first_ts', { mode: 'number' }),
  lastTs: bigint('last_ts', { mode: 'number' }),
  samples: bigint('samples', { mode: 'number' }).notNull().default(0),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const signalChunks = pgTable(
  'signal_chunks',
  {
    seriesId: bigint('series_id', { mode: 'number' }).notNull(),
    tStart: bigint('t_start', { mode: 'number' }).notNull(),
    tEnd: bigint('t_end', { mode: 'number' }).notNull(),
    n: integer('n').notNull(),
    codec: smallint('codec').notNull(),
    vFactor: doublePrecision('v_factor').notNull().default(1),
    vOffset: doublePrecision('v_offset').notNull().default(0),
    vMin: doublePrecision('v_min').notNull(),
    vMax: doublePrecision('v_max').notNull(),
    ts: bytea('ts').notNull(),
    vals: bytea('vals').notNull(),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.tStart, t.id] })],
);

export const signalRollups = pgTable(
  'signal_rollups',
  {
    seriesId: bigint('series_id', { mode: 'number' }).notNull(),
    /** Cell size in seconds: 1 or 60. */
    level: smallint('level').notNull(),
    tStart: bigint('t_start', { mode: 'number' }).notNull(),
    cells: bytea('cells').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.level, t.tStart] })],
);
