import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notices, noticeUserStates, users } from '../../db/schema/index.ts';

export type NoticeRow = typeof notices.$inferSelect;
export type NoticeInsert = typeof notices.$inferInsert;

/**
 * Notices are platform data written by system managers, not tenant data; the
 * per-user state is keyed by the user, whom the service has checked is the caller.
 */
export function noticeRepository(db: Db) {
  return {
    async insert(v: NoticeInsert): Promise<NoticeRow> {
      const [row] = await db.insert(notices).values(v).returning();
      return row;
    },

    async get(id: string): Promise<NoticeRow | null> {
      const [row] = await db.select().from(notices).where(eq(notices.id, id)).limit(1);
      return row ?? null;
    },

    async update(id: string, v: Partial<NoticeInsert>): Promise<NoticeRow | null> {
      const [row] = await db
        .update(notices)
        .set({ ...v, updatedAt: new Date() })
        .where(eq(notices.id, id))
        .returning();
      return row ?? null;
    },

    async remove(id: string): Promise<boolean> {
      const r = await db.delete(notices).where(eq(notices.id, id)).returning({ id: notices.id });
      return r.length > 0;
    },

    async page(f: { kind?: string; platform?: number }, offset: number, limit: number) {
      const parts: SQL[] = [];
      if (f.kind) parts.push(eq(notices.kind, f.kind as 'notice' | 'upgrade'));
      if (f.platform !== undefined) parts.push(eq(notices.platform, f.platform));
      const w = parts.length ? and(...parts) : undefined;
      const [rows, [{ n }]] = await Promise.all([
        db.select().from(notices).where(w).orderBy(desc(notices.createdAt), desc(notices.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(notices).where(w),
      ]);
      return { rows, total: Number(n) };
    },

    async userExists(userId: string): Promise<boolean> {
      const r = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      return r.length > 0;
    },

    async setUserState(noticeId: string, userId: string, noLongerShow: boolean): Promise<void> {
      await db
        .insert(noticeUserStates)
        .values({ noticeId, userId, noLongerShow })
        .onConflictDoUpdate({ target: [noticeUserStates.noticeId, noticeUserStates.userId], set: { noLongerShow, updatedAt: new Date() } });
    },

    /**
     * Notices to show `userId` at `now`: shown, for its platform (or all), not
     * ended, started (upgrade notices show ahead of their window), and not hidden
     * for good — an upgrade notice counts as hidden when the user hid any upgrade
     * notice of the same version.
     */
    async activeFor(userId: string, now: Date, platform: number | undefined): Promise<NoticeRow[]> {
      const hidden = sql`exists (
        select 1 from notice_user_states s join notices h on h.id = s.notice_id
         where s.user_id = ${userId} and s.no_longer_show
           and (s.notice_id = ${notices.id}
                or (${notices.kind} = 'upgrade' and h.kind = 'upgrade' and h.version = ${notices.version})))`;
      const parts: SQL[] = [
        eq(notices.isShow, true),
        sql`(${notices.endTime} is null or ${notices.endTime} > ${now})`,
        sql`(${notices.kind} = 'upgrade' or ${notices.startTime} is null or ${notices.startTime} <= ${now})`,
        sql`not ${hidden}`,
      ];
      if (platform !== undefined) parts.push(sql`(${notices.platform} is null or ${notices.platform} = ${platform})`);
      return db
        .select()
        .from(notices)
        .where(and(...parts))
        .orderBy(
          sql`${notices.kind} = 'upgrade' desc`,
          desc(sql`coalesce(${notices.startTime}, ${notices.createdAt})`),
          desc(notices.createdAt),
          desc(notices.id),
        );
    },
  };
}
export type NoticeRepository = ReturnType<typeof noticeRepository>;
