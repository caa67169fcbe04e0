import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginFailures, sessions, tenants, users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;

export interface SessionUser {
  session: typeof sessions.$inferSelect;
  user: UserRow;
  tenant: TenantRow;
}

export function controlRepository(db: Db) {
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
        return db
          .select({ user: users, tenant: tenants })
          .from(users)
          .innerJoin(tenants, eq(users.tenantId, tenants.id))
          .where(and(eq(users.username, sub), eq(tenants.name, tenantName)));
      }
      return db
        .select({ user: users, tenant: tenants })
        .from(users)
        .innerJoin(tenants, eq(users.tenantId, tenants.id))
        .where(and(isNull(users.parentUserId), sql`(${users.username} = ${login} or ${users.mobile} = ${login})`));
    },

    async findUser(userId: string): Promise<UserRow | null> {
      const rows = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      return rows[0] ?? null;
    },

    async recordFailure(userId: string, lockUntil: Date | null) {
      await db
        .update(users)
        .set({ failedLogins: sql`${users.failedLogins} + 1`, lockedUntil: lockUntil })
        .where(eq(users.id, userId));
    },

    /** Until when a login name (as typed, with or without an account) is locked out, if it is. */
    async nameLockedUntil(login: string): Promise<Date | null> {
      const rows = await db.select({ until: loginFailures.lockedUntil }).from(loginFailures).where(eq(loginFailures.login, login));
      return rows[0]?.until ?? null;
    },

    /**
     * Counts a failed password login under a name; from the `lockAfter`th on the name is locked
     * until `lockUntil`. Names untried for a day are forgotten, so the table stays small.
     */
    async recordNameFailure(login: string, lockAfter: number, lockUntil: Date): Promise<void> {
      const until = sql`${lockUntil.toISOString()}::timestamptz`;
      await db
        .insert(loginFailures)
        .values({ login, failures: 1, lockedUntil: lockAfter <= 1 ? lockUntil : null })
        .onConflictDoUpdate({
          target: loginFailures.login,
          set: {
            failures: sql`${loginFailures.failures} + 1`,
            lockedUntil: sql`case when ${loginFailures.failures} + 1 >= ${lockAfter} then ${until} else null end`,
            updatedAt: sql`now()`,
          },
        });
      await db.delete(loginFailures).where(sql`${loginFailures.updatedAt} < now() - interval '1 day'`);
    },

    async clearNameFailures(login: string): Promise<void> {
      await db.delete(loginFailures).where(eq(loginFailures.login, login));
    },

    async recordSuccess(userId: string, ip: string) {
      await db
        .update(users)
        .set({ failedLogins: 0, lockedUntil: null, lastLoginIp: ip, lastLoginTime: new Date() })
        .where(eq(users.id, userId));
    },

    async createSession(v: { userId: string; tenantId: string; expiresAt: Date; ip: string; userAgent: string | null }) {
      const [row] = await db.insert(sessions).values(v).returning();
      return row;
    },

    async loadSession(sessionId: string): Promise<SessionUser | null> {
      const rows = await db
        .select({ session: sessions, user: users, tenant: tenants })
        .from(sessions)
        .innerJoin(users, eq(sessions.userId, users.id))
        .innerJoin(tenants, eq(sessions.tenantId, tenants.id))
        .where(eq(sessions.id, sessionId))
        .limit(1);
      return rows[0] ?? null;
    },

    async revokeSession(sessionId: string, userId: string) {
      const r = await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return r.length > 0;
    },

    /** The manager of the read-only experience tenant, if seeded. */
    async findDemoManager(): Promise<UserRow | null> {
      const rows = await db
        .select({ user: users })
        .from(users)
        .innerJoin(tenants, eq(users.tenantId, tenants.id))
        .where(and(eq(tenants.isDemo, true), eq(users.isManager, true), eq(tenants.status, 1)))
        .limit(1);
      return rows[0]?.user ?? null;
    },

    /** Deletes the sessions that ended (logged out, ended by a change, or expired) before `before`; returns how many. */
    async purgeEndedSessions(before: Date): Promise<number> {
      const gone = await db
        .delete(sessions)
        .where(
          sql`coalesce(least(${sessions.revokedAt}, ${sessions.expiresAt}), ${sessions.expiresAt}) < ${before.toISOString()}::timestamptz`,
        )
        .returning({ id: sessions.id });
      return gone.length;
    },

    /** Ends every session of a user (e.g. after a permission change: spec §6). */
    async revokeAllForUser(userId: string) {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },
  };
}
export type ControlRepository = ReturnType<typeof controlRepository>;
