import { bigint, boolean, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  tenantType: smallint('tenant_type').notNull().default(0),
  organizationName: text('organization_name'),
  mobile: text('mobile'),
  email: text('email'),
  address: text('address'),
  country: text('country'),
  province: text('province'),
  city: text('city'),
  industry: text('industry'),
  description: text('description'),
  status: smallint('status').notNull().default(1),
  audited: boolean('audited').notNull().default(true),
  platform: smallint('platform').notNull().default(0),
  belongPlatform: text('belong_platform'),
  priority: smallint('priority').notNull().default(0),
  merchantId: uuid('merchant_id'),
  isSystem: boolean('is_system').notNull().default(false),
  isDemo: boolean('is_demo').notNull().default(false),
  returnVisitTime: ts('return_visit_time'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull(),
  username: text('username').notNull(),
  name: text('name').notNull(),
  nickName: text('nick_name'),
  mobile: text('mobile'),
  areaCode: text('area_code').notNull().default('86'),
  email: text('email'),
  passwordHash: text('password_hash').notNull(),
  isManager: boolean('is_manager').notNull().default(false),
  systemManager: boolean('system_manager').notNull().default(false),
  parentUserId: uuid('parent_user_id'),
  description: text('description'),
  department: text('department'),
  gender: text('gender').notNull().default('male'),
  job: text('job'),
  avatar: text('avatar'),
  status: smallint('status').notNull().default(1),
  failedLogins: integer('failed_logins').notNull().default(0),
  lockedUntil: ts('locked_until'),
  lastLoginIp: text('last_login_ip'),
  lastLoginTime: ts('last_login_time'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  ip: text('ip'),
  userAgent: text('user_agent'),
});

/** Failed password logins per login name as typed, whether an account has it or not. */
export const loginFailures = pgTable('login_failures', {
  login: text('login').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: ts('locked_until'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const pushLogs = pgTable('push_logs', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id'),
  channel: text('channel').notNull(),
  destination: text('destination').notNull(),
  purpose: text('purpose').notNull(),
  subject: text('subject'),
  text: text('text').notNull(),
  status: text('status').notNull().default('sent'),
  attempts: integer('attempts').notNull().default(0),
  error: text('error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
});

export const opLogs = pgTable('op_logs', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id'),
  username: text('username'),
  method: text('method').notNull(),
  path: text('path').notNull(),
  status: integer('status').notNull(),
  ip: text('ip'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const tenantCustomizations = pgTable(
  'tenant_customizations',
  {
    tenantId: uuid('tenant_id').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] })],
);

export const userConfigs = pgTable(
  'user_configs',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const userGrants = pgTable('user_grants', { userId: uuid('user_id').notNull(), key: text('key').notNull() }, (t) => [
  primaryKey({ columns: [t.userId, t.key] }),
]);

export const userMenus = pgTable('user_menus', { userId: uuid('user_id').notNull(), menu: text('menu').notNull() }, (t) => [
  primaryKey({ columns: [t.userId, t.menu] }),
]);

export const userDeviceAccess = pgTable(
  'user_device_access',
  {
    userId: uuid('user_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    thingsId: uuid('things_id').notNull(),
    access: text('access').$type<'read' | 'write'>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.thingsId] })],
);
