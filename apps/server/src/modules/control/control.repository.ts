import type { RawSql } from '../../db/client.ts';

/** A user as logins and sessions read it (the `users` table, camelCase). */
export interface UserRow {
  id: string;
  tenantId: string;
  username: string;
  name: string;
  nickName: string | null;
  mobile: string | null;
  areaCode: string;
  email: string | null;
  passwordHash: string;
  isManager: boolean;
  systemManager: boolean;
  parentUserId: string | null;
  description: string | null;
  department: string | null;
  gender: string;
  job: string | null;
  avatar: string | null;
  status: number;
  failedLogins: number;
  lockedUntil: Date | null;
  lastLoginIp: string | null;
  lastLoginTime: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A tenant as logins and sessions read it (the `tenants` table, camelCase). */
export interface TenantRow {
  id: string;
  name: string;
  tenantType: number;
  organizationName: string | null;
  mobile: string | null;
  email: string | null;
  address: string | null;
  country: string | null;
  province: string | null;
  city: string | null;
  industry: string | null;
  description: string | null;
  status: number;
  audited: boolean;
  platform: number;
  belongPlatform: string | null;
  priority: number;
  merchantId: string | null;
  isSystem: boolean;
  isDemo: boolean;
  returnVisitTime: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SessionRow {
  id: string;
  userId: string;
  tenantId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  ip: string | null;
  userAgent: string | null;
  actingUserId: string | null;
  readOnly: boolean;
}

export interface SessionUser {
  session: SessionRow;
  user: UserRow;
  tenant: TenantRow;
}

/** Property name → column, in table order. */
const USER: Record<keyof UserRow, string> = {
  id: 'id',
  tenantId: 'tenant_id',
  username: 'username',
  name: 'name',
  nickName: 'nick_name',
  mobile: 'mobile',
  areaCode: 'area_code',
  email: 'email',
  passwordHash: 'password_hash',
  isManager: 'is_manager',
  systemManager: 'system_manager',
  parentUserId: 'parent_user_id',
  description: 'description',
  department: 'department',
  gender: 'gender',
  job: 'job',
  avatar: 'avatar',
  status: 'status',
  failedLogins: 'failed_logins',
  lockedUntil: 'locked_until',
  lastLoginIp: 'last_login_ip',
  lastLoginTime: 'last_login_time',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const TENANT: Record<keyof TenantRow, string> = {
  id: 'id',
  name: 'name',
  tenantType: 'tenant_type',
  organizationName: 'organization_name',
  mobile: 'mobile',
  email: 'email',
  address: 'address',
  country: 'country',
  province: 'province',
  city: 'city',
  industry: 'industry',
  description: 'description',
  status: 'status',
  audited: 'audited',
  platform: 'platform',
  belongPlatform: 'belong_platform',
  priority: 'priority',
  merchantId: 'merchant_id',
  isSystem: 'is_system',
  isDemo: 'is_demo',
  returnVisitTime: 'return_visit_time',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const SESSION: Record<keyof SessionRow, string> = {
  id: 'id',
  userId: 'user_id',
  tenantId: 'tenant_id',
  createdAt: 'created_at',
  expiresAt: 'expires_at',
  revokedAt: 'revoked_at',
  ip: 'ip',
  userAgent: 'user_agent',
  actingUserId: 'acting_user_id',
  readOnly: 'read_only',
};

/** `table.column as "<prefix>property", …` for a select list; a joined row's parts get a prefix each. */
function columns(table: string, cols: Record<string, string>, prefix = ''): string {
  return Object.entries(cols)
    .map(([key, col]) => `${table}.${col} as "${prefix}${key}"`)
    .join(', ');
}

/** The part of a joined row whose aliases start with `prefix`, prefix taken off. */
function part<T>(row: Record<string, unknown>, cols: Record<string, string>, prefix: string): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(cols)) out[key] = row[prefix + key];
  return out as T;
}

const USER_COLS = columns('users', USER);
const SESSION_COLS = columns('sessions', SESSION);
/** A user with its tenant, as one joined row. */
const USER_TENANT_COLS = `${columns('users', USER, 'u.')}, ${columns('tenants', TENANT, 't.')}`;

const userAndTenant = (row: Record<string, unknown>) => ({
  user: part<UserRow>(row, USER, 'u.'),
  tenant: part<TenantRow>(row, TENANT, 't.'),
});

export function controlRepository(raw: RawSql) {
  return {
    /**
     * Candidates for a login name: a manager or system manager by username or
     * mobile; a sub-user as `name@tenantname` (spec §6).
     */
    async findForLogin(login: string): Promise<{ user: UserRow; tenant: TenantRow }[]> {
      const at = login.lastIndexOf('@');
      if (at > 0 && !login.includes('.', at)) {
        const sub = login.slice(0, at);
        const tenantName = login.slice(at + 1);
        const { rows } = await raw.query(
          `select ${USER_TENANT_COLS} from users inner join tenants on users.tenant_id = tenants.id
            where users.username = $1 and tenants.name = $2 and not users.machine`,
          [sub, tenantName],
        );
        return rows.map(userAndTenant);
      }
      const { rows } = await raw.query(
        `select ${USER_TENANT_COLS} from users inner join tenants on users.tenant_id = tenants.id
          where users.parent_user_id is null and not users.machine and (users.username = $1 or users.mobile = $1)`,
        [login],
      );
      return rows.map(userAndTenant);
    },

    async findUser(userId: string): Promise<UserRow | null> {
      const { rows } = await raw.query<UserRow>(`select ${USER_COLS} from users where users.id = $1 limit 1`, [userId]);
      return rows[0] ?? null;
    },

    async recordFailure(userId: string, lockUntil: Date | null) {
      await raw.query('update users set failed_logins = failed_logins + 1, locked_until = $2 where id = $1', [userId, lockUntil]);
    },

    /** Until when a login name (as typed, with or without an account) is locked out, if it is. */
    async nameLockedUntil(login: string): Promise<Date | null> {
      const { rows } = await raw.query<{ until: Date | null }>('select locked_until as until from login_failures where login = $1', [
        login,
      ]);
      return rows[0]?.until ?? null;
    },

    /**
     * Counts a failed password login under a name; from the `lockAfter`th on the name is locked
     * until `lockUntil`. Names untried for a day are forgotten, so the table stays small.
     */
    async recordNameFailure(login: string, lockAfter: number, lockUntil: Date): Promise<void> {
      await raw.query(
        `insert into login_failures (login, failures, locked_until) values ($1, 1, $2)
          on conflict (login) do update set
            failures = login_failures.failures + 1,
            locked_until = case when login_failures.failures + 1 >= $3 then $4::timestamptz else null end,
            updated_at = now()`,
        [login, lockAfter <= 1 ? lockUntil : null, lockAfter, lockUntil.toISOString()],
      );
      await raw.query(`delete from login_failures where updated_at < now() - interval '1 day'`);
    },

    async clearNameFailures(login: string): Promise<void> {
      await raw.query('delete from login_failures where login = $1', [login]);
    },

    async recordSuccess(userId: string, ip: string) {
      await raw.query('update users set failed_logins = 0, locked_until = null, last_login_ip = $2, last_login_time = $3 where id = $1', [
        userId,
        ip,
        new Date(),
      ]);
    },

    async createSession(v: {
      userId: string;
      tenantId: string;
      expiresAt: Date;
      ip: string;
      userAgent: string | null;
      actingUserId?: string;
      readOnly?: boolean;
    }): Promise<SessionRow> {
      const { rows } = await raw.query<SessionRow>(
        `insert into sessions (user_id, tenant_id, expires_at, ip, user_agent, acting_user_id, read_only)
         values ($1, $2, $3, $4, $5, $6, $7) returning ${SESSION_COLS}`,
        [v.userId, v.tenantId, v.expiresAt, v.ip, v.userAgent, v.actingUserId ?? null, v.readOnly ?? false],
      );
      return rows[0];
    },

    async loadSession(sessionId: string): Promise<SessionUser | null> {
      const { rows } = await raw.query(
        `select ${columns('sessions', SESSION, 's.')}, ${USER_TENANT_COLS}
          from sessions
          inner join users on sessions.user_id = users.id
          inner join tenants on sessions.tenant_id = tenants.id
          where sessions.id = $1 limit 1`,
        [sessionId],
      );
      const row = rows[0];
      return row ? { session: part<SessionRow>(row, SESSION, 's.'), ...userAndTenant(row) } : null;
    },

    async revokeSession(sessionId: string, userId: string) {
      const { rows } = await raw.query(
        'update sessions set revoked_at = $3 where id = $1 and user_id = $2 and revoked_at is null returning id',
        [sessionId, userId, new Date()],
      );
      return rows.length > 0;
    },

    /** The manager of a tenant (the one a super-session opens), with the tenant. */
    async findManagerOf(tenantId: string): Promise<{ user: UserRow; tenant: TenantRow } | null> {
      const { rows } = await raw.query(
        `select ${USER_TENANT_COLS} from users inner join tenants on users.tenant_id = tenants.id
          where tenants.id = $1 and users.is_manager and users.parent_user_id is null order by users.created_at limit 1`,
        [tenantId],
      );
      return rows[0] ? userAndTenant(rows[0]) : null;
    },

    /** The manager of the read-only experience tenant, if seeded. */
    async findDemoManager(): Promise<UserRow | null> {
      const { rows } = await raw.query<UserRow>(
        `select ${USER_COLS} from users inner join tenants on users.tenant_id = tenants.id
          where tenants.is_demo = true and users.is_manager = true and tenants.status = 1 limit 1`,
      );
      return rows[0] ?? null;
    },

    /** Deletes the sessions that ended (logged out, ended by a change, or expired) before `before`; returns how many. */
    async purgeEndedSessions(before: Date): Promise<number> {
      const { rows } = await raw.query(
        'delete from sessions where coalesce(least(revoked_at, expires_at), expires_at) < $1::timestamptz returning id',
        [before.toISOString()],
      );
      return rows.length;
    },

    /** Ends every session of a user (e.g. after a permission change: spec §6). */
    async revokeAllForUser(userId: string) {
      await raw.query('update sessions set revoked_at = $2 where user_id = $1 and revoked_at is null', [userId, new Date()]);
    },
  };
}
export type ControlRepository = ReturnType<typeof controlRepository>;
