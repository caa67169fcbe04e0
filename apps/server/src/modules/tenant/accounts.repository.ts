import type { RawSql } from '../../db/client.ts';
import type { SessionEndReason } from '../control/control.service.ts';

export interface UserRow {
  id: string;
  tenant_id: string;
  username: string;
  name: string;
  nick_name: string | null;
  mobile: string | null;
  area_code: string;
  email: string | null;
  password_hash: string;
  is_manager: boolean;
  system_manager: boolean;
  parent_user_id: string | null;
  description: string | null;
  department: string | null;
  gender: string;
  job: string | null;
  avatar: string | null;
  status: number;
  last_login_ip: string | null;
  last_login_time: Date | null;
  created_at: Date;
}

export interface TenantRow {
  id: string;
  name: string;
  tenant_type: number;
  organization_name: string | null;
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
  belong_platform: string | null;
  priority: number;
  merchant_id: string | null;
  is_system: boolean;
  quota_exempt: boolean;
  is_demo: boolean;
  return_visit_time: Date | null;
  reclaim_policy: number;
  max_reserves_duration: number | null;
  created_at: Date;
}

/** `set a = $1, b = $2` from a record of column -> value; columns come from code, never from input. */
export function setClause(fields: Record<string, unknown>, firstParam: number): { sql: string; params: unknown[] } {
  const cols = Object.keys(fields).filter((k) => fields[k] !== undefined);
  return {
    sql: cols.map((c, i) => `${c} = $${firstParam + i}`).join(', '),
    params: cols.map((c) => fields[c]),
  };
}

/**
 * Users and tenants as the account calls need them. Queries about one account
 * take its tenant id; the look-ups that precede any login (mobile, e-mail,
 * name uniqueness) are platform-wide by nature.
 */
export function accountsRepository(raw: RawSql) {
  return {
    async user(tenantId: string, userId: string): Promise<UserRow | null> {
      const { rows } = await raw.query<UserRow>('select * from users where id = $1 and tenant_id = $2', [userId, tenantId]);
      return rows[0] ?? null;
    },

    async tenant(tenantId: string): Promise<TenantRow | null> {
      const { rows } = await raw.query<TenantRow>('select * from tenants where id = $1', [tenantId]);
      return rows[0] ?? null;
    },

    /** A main account (manager) by its mobile: mobiles are unique among main accounts. */
    async managerByMobile(mobile: string): Promise<UserRow | null> {
      const { rows } = await raw.query<UserRow>('select * from users where mobile = $1 and parent_user_id is null and is_manager limit 1', [
        mobile,
      ]);
      return rows[0] ?? null;
    },

    async mobileTaken(mobile: string, exceptUserId?: string): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from users where mobile = $1 and parent_user_id is null and ($2::uuid is null or id <> $2::uuid) limit 1',
        [mobile, exceptUserId ?? null],
      );
      return rows.length > 0;
    },

    async emailTaken(email: string, exceptUserId?: string): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from users where lower(email) = lower($1) and ($2::uuid is null or id <> $2::uuid) limit 1',
        [email, exceptUserId ?? null],
      );
      return rows.length > 0;
    },

    /** A registration name is the manager's username and the tenant's name: both must be free. */
    async nameTaken(name: string): Promise<boolean> {
      const { rows } = await raw.query(
        `select 1 from tenants where lower(name) = lower($1)
         union all select 1 from users where lower(username) = lower($1) and parent_user_id is null limit 1`,
        [name],
      );
      return rows.length > 0;
    },

    async activeMerchant(id: string): Promise<boolean> {
      const { rows } = await raw.query('select 1 from tenants where id::text = $1 and tenant_type = 1 and status = 1', [id]);
      return rows.length > 0;
    },

    async updateUser(tenantId: string, userId: string, fields: Record<string, unknown>) {
      const set = setClause({ ...fields, updated_at: new Date() }, 3);
      await raw.query(`update users set ${set.sql} where id = $1 and tenant_id = $2`, [userId, tenantId, ...set.params]);
    },

    async updateTenant(tenantId: string, fields: Record<string, unknown>) {
      const set = setClause({ ...fields, updated_at: new Date() }, 2);
      await raw.query(`update tenants set ${set.sql} where id = $1`, [tenantId, ...set.params]);
    },

    /** New password: also clears a lock-out. */
    async setPassword(tenantId: string, userId: string, hash: string) {
      await raw.query(
        'update users set password_hash = $3, failed_logins = 0, locked_until = null, updated_at = now() where id = $1 and tenant_id = $2',
        [userId, tenantId, hash],
      );
    },

    /**
     * Ends the sessions of a user, except (optionally) the one making the change. `reason` is not
     * stored: the tenant module passes it on to the user's open sockets (`ended` by default).
     */
    async revokeSessions(userId: string, exceptSessionId?: string, _reason?: SessionEndReason) {
      await raw.query(
        'update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and ($2::uuid is null or id <> $2::uuid)',
        [userId, exceptSessionId ?? null],
      );
    },
  };
}
export type AccountsRepository = ReturnType<typeof accountsRepository>;
