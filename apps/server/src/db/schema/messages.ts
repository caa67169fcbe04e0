import { boolean, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const userMessages = pgTable('user_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id').notNull(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  messageType: text('message_type').notNull(),
  reminderMode: smallint('reminder_mode').notNull().default(1),
  platform: smallint('platform').notNull().default(0),
  readStatus: smallint('read_status').notNull().default(0),
  sendTime: ts('send_time').notNull().defaultNow(),
  readAt: ts('read_at'),
  /** Title and content per console language, when the sender gave them. */
  texts: jsonb('texts').$type<Partial<Record<'zh' | 'en', { title: string; content: string }>>>(),
});

export const notices = pgTable('notices', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').$type<'notice' | 'upgrade'>().notNull().default('notice'),
  title: text('title').notNull(),
  content: text('content').notNull().default(''),
  platform: smallint('platform'),
  version: text('version'),
  startTime: ts('start_time'),
  endTime: ts('end_time'),
  isShow: boolean('is_show').notNull().default(true),
  changes: jsonb('changes').$type<string[]>().notNull().default([]),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const noticeUserStates = pgTable(
  'notice_user_states',
  {
    noticeId: uuid('notice_id').notNull(),
    userId: uuid('user_id').notNull(),
    noLongerShow: boolean('no_longer_show').notNull().default(false),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.userId] })],
);
