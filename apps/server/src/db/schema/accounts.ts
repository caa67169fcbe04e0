import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** SMS / e-mail verification codes (migration 0010); only an HMAC of the code is stored. */
export const verificationCodes = pgTable('verification_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  channel: text('channel').$type<'sms' | 'email'>().notNull(),
  destination: text('destination').notNull(),
  purpose: text('purpose').$type<'register' | 'modify' | 'login'>().notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  ip: text('ip'),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  consumedAt: ts('consumed_at'),
});
