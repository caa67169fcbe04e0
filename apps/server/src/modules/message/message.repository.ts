import type { RawSql } from '../../db/client.ts';

export interface MessageRow {
  id: string;
  tenantId: string;
  userId: string;
  title: string;
  content: string;
  messageType: string;
  reminderMode: number;
  platform: number;
  readStatus: number;
  sendTime: Date;
  readAt: Date | null;
  /** Title and content per console language, when the sender gave them. */
  texts: Partial<Record<'zh' | 'en', { title: string; content: string }>> | null;
}

/** A new message; reminder mode and platform left undefined take the column's default. */
export interface NewMessage {
  tenantId: string;
  userId: string;
  title: string;
  content: string;
  texts: MessageRow['texts'];
  messageType: string;
  reminderMode?: number;
  platform?: number;
}

export interface MessageFilter {
  /** 0, 1, 2 exactly; 3 = every message not deleted. */
  readStatus: number;
  platform?: number;
}

const COLS = `id, tenant_id as "tenantId", user_id as "userId", title, content, message_type as "messageType",
  reminder_mode as "reminderMode", platform, read_status as "readStatus", send_time as "sendTime", read_at as "readAt", texts`;

/** $1 tenant, $2 user, then the filter's parameters. */
function where(tenantId: string, userId: string, f: MessageFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [tenantId, userId, f.readStatus === 3 ? 2 : f.readStatus];
  const parts = ['tenant_id = $1', 'user_id = $2', f.readStatus === 3 ? 'read_status <> $3' : 'read_status = $3'];
  if (f.platform !== undefined) {
    params.push(f.platform);
    parts.push(`platform = $${params.length}`);
  }
  return { sql: parts.join(' and '), params };
}

/** A user's in-app messages, always scoped by tenant and user. */
export function messageRepository(raw: RawSql) {
  return {
    async userInTenant(tenantId: string, userId: string): Promise<boolean> {
      const { rows } = await raw.query('select id from users where id = $1 and tenant_id = $2 limit 1', [userId, tenantId]);
      return rows.length > 0;
    },

    async insert(v: NewMessage): Promise<MessageRow> {
      const { rows } = await raw.query<MessageRow>(
        `insert into user_messages (tenant_id, user_id, title, content, texts, message_type, reminder_mode, platform)
         values ($1, $2, $3, $4, $5::jsonb, $6, coalesce($7::smallint, 1), coalesce($8::smallint, 0)) returning ${COLS}`,
        [
          v.tenantId,
          v.userId,
          v.title,
          v.content,
          v.texts === null ? null : JSON.stringify(v.texts),
          v.messageType,
          v.reminderMode ?? null,
          v.platform ?? null,
        ],
      );
      return rows[0];
    },

    async page(tenantId: string, userId: string, f: MessageFilter, offset: number, limit: number) {
      const w = where(tenantId, userId, f);
      const n = w.params.length;
      const [list, total] = await Promise.all([
        raw.query<MessageRow>(
          `select ${COLS} from user_messages where ${w.sql} order by send_time desc, id desc offset $${n + 1} limit $${n + 2}`,
          [...w.params, offset, limit],
        ),
        raw.query<{ n: number }>(`select count(*)::int as n from user_messages where ${w.sql}`, w.params),
      ]);
      return { rows: list.rows, total: Number(total.rows[0].n) };
    },

    async unreadCount(tenantId: string, userId: string, platform?: number): Promise<number> {
      const w = where(tenantId, userId, { readStatus: 0, platform });
      const { rows } = await raw.query<{ n: number }>(`select count(*)::int as n from user_messages where ${w.sql}`, w.params);
      return Number(rows[0].n);
    },

    /** Changes the read state of one message that is not deleted; returns rows changed. */
    async setOne(tenantId: string, userId: string, id: string, readStatus: number): Promise<number> {
      const { rows } = await raw.query(
        `update user_messages set read_status = $4${readStatus === 1 ? ', read_at = $5' : ''}
          where id = $1 and tenant_id = $2 and user_id = $3 and read_status <> 2 returning id`,
        readStatus === 1 ? [id, tenantId, userId, readStatus, new Date()] : [id, tenantId, userId, readStatus],
      );
      return rows.length;
    },

    /** Mark all read (from unread), all unread (from read) or delete all (from either). */
    async setAll(tenantId: string, userId: string, readStatus: number): Promise<number> {
      const from = readStatus === 1 ? [0] : readStatus === 0 ? [1] : [0, 1];
      const { rows } = await raw.query(
        `update user_messages set read_status = $3${readStatus === 1 ? ', read_at = $5' : ''}
          where tenant_id = $1 and user_id = $2 and read_status = any($4::smallint[]) returning id`,
        readStatus === 1 ? [tenantId, userId, readStatus, from, new Date()] : [tenantId, userId, readStatus, from],
      );
      return rows.length;
    },

    async managerIds(tenantId: string): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>('select id from users where tenant_id = $1 and is_manager = true and status = 1', [
        tenantId,
      ]);
      return rows.map((r) => r.id);
    },

    async systemManagers(): Promise<{ id: string; tenantId: string }[]> {
      const { rows } = await raw.query<{ id: string; tenantId: string }>(
        'select id, tenant_id as "tenantId" from users where system_manager = true and status = 1',
      );
      return rows;
    },
  };
}
export type MessageRepository = ReturnType<typeof messageRepository>;
