import {
  type MessageLang,
  type SendMessageInput,
  SendMessageSchema,
  type UserMessage,
  type UserMessagePage,
  type UserMessageQuery,
  type UserMessageUpdate,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { type MessageRepository, type MessageRow, messageRepository } from './message.repository.ts';

/** The message in `lang` when it was written in it, else its own title and content. */
export function toUserMessage(r: MessageRow, lang?: MessageLang | null): UserMessage {
  const text = (lang && r.texts?.[lang]) || { title: r.title, content: r.content };
  return {
    id: r.id,
    messageTitle: text.title,
    messageContent: text.content,
    messageType: r.messageType,
    send_time: r.sendTime.toISOString(),
    read_status: r.readStatus as 0 | 1 | 2,
    reminderMode: r.reminderMode as 1 | 2,
    platform: r.platform,
  };
}

/**
 * A user's messages are theirs alone: not even the tenant manager reads a
 * sub-user's inbox (messages can carry work-order replies and alert details
 * meant for that person).
 */
function assertSelf(auth: Auth, tenantId: string, userId: string) {
  if (auth.tenantId !== tenantId || auth.userId !== userId) throw forbidden();
}

export function messageService(raw: RawSql, events: EventBus, repo: MessageRepository = messageRepository(raw)) {
  async function send(tenantId: string, userId: string, input: SendMessageInput): Promise<UserMessage> {
    const v = SendMessageSchema.parse(input);
    if (!(await repo.userInTenant(tenantId, userId))) throw notFound('User not found');
    const row = await repo.insert({
      tenantId,
      userId,
      title: v.title,
      content: v.content,
      texts: v.texts ?? null,
      messageType: v.type,
      reminderMode: v.reminderMode,
      platform: v.platform,
    });
    const message = toUserMessage(row);
    events.emit('message.created', { tenantId, userId, message, unread: await repo.unreadCount(tenantId, userId) });
    return message;
  }

  return {
    /**
     * Stores a message for one user of `tenantId` and announces it on
     * `ctx.events` ('message.created'). Throws 404 when the user is not in that tenant.
     */
    send,

    /** To every active manager of the tenant (e.g. tenant-wide alerts, audit results). */
    async sendToManagers(tenantId: string, input: SendMessageInput): Promise<UserMessage[]> {
      const ids = await repo.managerIds(tenantId);
      const out: UserMessage[] = [];
      for (const id of ids) out.push(await send(tenantId, id, input));
      return out;
    },

    /** To every system manager (e.g. a new work order to handle). */
    async sendToSystemManagers(input: SendMessageInput): Promise<UserMessage[]> {
      const out: UserMessage[] = [];
      for (const m of await repo.systemManagers()) out.push(await send(m.tenantId, m.id, input));
      return out;
    },

    async list(auth: Auth, tenantId: string, userId: string, q: UserMessageQuery, lang?: MessageLang | null): Promise<UserMessagePage> {
      assertSelf(auth, tenantId, userId);
      const { rows, total } = await repo.page(
        tenantId,
        userId,
        { readStatus: q.read_status, platform: q.platform },
        (q.current_page - 1) * q.page_size,
        q.page_size,
      );
      return {
        total,
        current_page: q.current_page,
        page_size: q.page_size,
        list: rows.map((r) => toUserMessage(r, lang)),
        unread: await repo.unreadCount(tenantId, userId, q.platform),
      };
    },

    async unread(auth: Auth, tenantId: string, userId: string, platform?: number): Promise<{ unread: number }> {
      assertSelf(auth, tenantId, userId);
      return { unread: await repo.unreadCount(tenantId, userId, platform) };
    },

    async update(auth: Auth, tenantId: string, userId: string, body: UserMessageUpdate): Promise<{ updated: number; unread: number }> {
      assertSelf(auth, tenantId, userId);
      let updated: number;
      if (body.user_message_id) {
        updated = await repo.setOne(tenantId, userId, body.user_message_id, body.read_status);
        if (updated === 0) throw notFound('Message not found');
      } else if (body.update_all) {
        updated = await repo.setAll(tenantId, userId, body.read_status);
      } else {
        throw new ApiError(400, 'http.400', 'give either user_message_id or update_all', { field: 'user_message_id' });
      }
      const unread = await repo.unreadCount(tenantId, userId);
      events.emit('message.updated', { tenantId, userId, unread });
      return { updated, unread };
    },
  };
}
export type MessageService = ReturnType<typeof messageService>;
