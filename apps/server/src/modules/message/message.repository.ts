import { and, count, desc, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userMessages, users } from '../../db/schema/index.ts';

export type MessageRow = typeof userMessages.$inferSelect;

export interface MessageFilter {
  /** 0, 1, 2 exactly; 3 = every message not deleted. */
  readStatus: number;
  platform?: number;
}

export function messageRepository(db: Db) {
  const where = (tenantId: string, userId: string, f: MessageFilter) => {
    const parts: SQL[] = [eq(userMessages.tenantId, tenantId), eq(userMessages.userId, userId)];
    parts.push(f.readStatus === 3 ? ne(userMessages.readStatus, 2) : eq(userMessages.readStatus, f.readStatus));
    if (f.platform !== undefined) parts.push(eq(userMessages.platform, f.platform));
    return and(...parts);
  };

  return {
    async userInTenant(tenantId: string, userId: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)))
        .limit(1);
      return rows.length > 0;
    },

    async insert(v: typeof userMessages.$inferInsert): Promise<MessageRow> {
      const [row] = await db.insert(userMessages).values(v).returning();
      return row;
    },

    async page(tenantId: string, userId: string, f: MessageFilter, offset: number, limit: number) {
      const w = where(tenantId, userId, f);
      const [rows, [{ n }]] = await Promise.all([
        db.select().from(userMessages).where(w).orderBy(desc(userMessages.sendTime), desc(userMessages.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(userMessages).where(w),
      ]);
      return { rows, total: Number(n) };
    },

    async unreadCount(tenantId: string, userId: string, platform?: number): Promise<number> {
      const [{ n }] = await db
        .select({ n: count() })
        .from(userMessages)
        .where(where(tenantId, userId, { readStatus: 0, platform }));
      return Number(n);
    },

    /** Changes the read state of one message that is not deleted; returns rows changed. */
    async setOne(tenantId: string, userId: string, id: string, readStatus: number): Promise<number> {
      const r = await db
        .update(userMessages)
        .set({ readStatus, readAt: readStatus === 1 ? new Date() : undefined })
        .where(
          and(
            eq(userMessages.id, id),
            eq(userMessages.tenantId, tenantId),
            eq(userMessages.userId, userId),
            ne(userMessages.readStatus, 2),
          ),
        )
        .returning({ id: userMessages.id });
      return r.length;
    },

    /** Mark all read (from unread), all unread (from read) or delete all (from either). */
    async setAll(tenantId: string, userId: string, readStatus: number): Promise<number> {
      const from = readStatus === 1 ? [0] : readStatus === 0 ? [1] : [0, 1];
      const r = await db
        .update(userMessages)
        .set({ readStatus, readAt: readStatus === 1 ? new Date() : undefined })
        .where(and(eq(userMessages.tenantId, tenantId), eq(userMessages.userId, userId), inArray(userMessages.readStatus, from)))
        .returning({ id: userMessages.id });
      return r.length;
    },

    async managerIds(tenantId: string): Promise<string[]> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.isManager, true), eq(users.status, 1)));
      return rows.map((r) => r.id);
    },

    async systemManagers(): Promise<{ id: string; tenantId: string }[]> {
      return db
        .select({ id: users.id, tenantId: users.tenantId })
        .from(users)
        .where(and(eq(users.systemManager, true), eq(users.status, 1)));
    },
  };
}
export type MessageRepository = ReturnType<typeof messageRepository>;
