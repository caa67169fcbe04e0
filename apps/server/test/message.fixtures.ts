import { randomUUID } from 'node:crypto';
import type { LoggerheadApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { login } from './helper.ts';

export const USER_PASSWORD = 'Tenant-Pass-42';

export interface TestUser {
  id: string;
  tenantId: string;
  username: string;
  /** Bearer header value. */
  auth: string;
}

export interface TestTenant {
  id: string;
  name: string;
  manager: TestUser;
  sub: TestUser;
}

let hash: Promise<string> | null = null;

/**
 * A tenant with a manager and one sub-user (granted `grants`), both signed in.
 * Made in the database directly: these tests are about messages, notices, work
 * orders and packages, not about registration.
 */
export async function makeTenant(app: LoggerheadApp, database: Database, grants: string[] = []): Promise<TestTenant> {
  hash ??= hashPassword(USER_PASSWORD);
  const passwordHash = await hash;
  const name = `t${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const { rows: t } = await database.raw.query<{ id: string }>('insert into tenants(name, status) values ($1, 1) returning id', [name]);
  const tenantId = t[0].id;
  const { rows: m } = await database.raw.query<{ id: string }>(
    `insert into users(tenant_id, username, name, password_hash, is_manager) values ($1, $2, $2, $3, true) returning id`,
    [tenantId, name, passwordHash],
  );
  const { rows: s } = await database.raw.query<{ id: string }>(
    `insert into users(tenant_id, username, name, password_hash, parent_user_id) values ($1, 'helper', 'helper', $2, $3) returning id`,
    [tenantId, passwordHash, m[0].id],
  );
  for (const key of grants) await database.raw.query('insert into user_grants(user_id, key) values ($1, $2)', [s[0].id, key]);
  return {
    id: tenantId,
    name,
    manager: { id: m[0].id, tenantId, username: name, auth: await login(app, name, USER_PASSWORD) },
    sub: { id: s[0].id, tenantId, username: 'helper', auth: await login(app, `helper@${name}`, USER_PASSWORD) },
  };
}

/** The system manager's ids (platform tenant). */
export async function adminIds(database: Database): Promise<{ id: string; tenantId: string }> {
  const { rows } = await database.raw.query<{ id: string; tenant_id: string }>(
    "select id, tenant_id from users where username = 'admin' and system_manager",
  );
  return { id: rows[0].id, tenantId: rows[0].tenant_id };
}
