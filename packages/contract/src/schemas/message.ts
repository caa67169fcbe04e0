import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/** Spec §3 user message read_status: 0 unread, 1 read, 2 deleted; 3 = all (a query filter only). */
export const MessageReadStatus = { unread: 0, read: 1, deleted: 2, all: 3 } as const;
/** Spec §3 reminderMode: 1 badge on the bell icon, 2 a dialog that pops up (and marks it read). */
export const ReminderMode = { icon: 1, dialog: 2 } as const;

/** Message types the server sends; other modules may send their own short type names. */
export const MESSAGE_TYPES = ['system', 'alert', 'workorder', 'audit', 'capacity', 'device'] as const;

export const MESSAGE_TITLE_MAX = 200;
export const MESSAGE_CONTENT_MAX = 10_000;

export const UserMessageSchema = z
  .object({
    id: z.string(),
    /** Plain text: stored and returned verbatim, never interpreted as HTML. */
    messageTitle: z.string(),
    messageContent: z.string(),
    messageType: z.string(),
    /** ISO 8601. */
    send_time: z.string(),
    read_status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    reminderMode: z.union([z.literal(1), z.literal(2)]),
    platform: z.number().int(),
  })
  .meta({ id: 'UserMessage' });
export type UserMessage = z.infer<typeof UserMessageSchema>;

export const UserMessagePathSchema = z.object({ tenant_id: UuidSchema, user_id: UuidSchema });

export const UserMessageQuerySchema = PageQuerySchema.extend({
  platform: z.coerce.number().int().min(0).max(99).optional(),
  read_status: z.coerce.number().int().min(0).max(3).default(MessageReadStatus.all),
});
export type UserMessageQuery = z.infer<typeof UserMessageQuerySchema>;

/** A page of messages plus the user's unread count (the bell badge). */
export const UserMessagePageSchema = pageOf(UserMessageSchema).extend({ unread: z.number().int() });
export type UserMessagePage = z.infer<typeof UserMessagePageSchema>;

/** Spec §7: one message (user_message_id) or all of them (update_all) take read_status. */
export const UserMessageUpdateSchema = z
  .object({
    user_message_id: z.uuid().optional(),
    update_all: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
    read_status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  })
  .refine((v) => Boolean(v.user_message_id) !== Boolean(v.update_all), {
    message: 'give either user_message_id or update_all',
    path: ['user_message_id'],
  });
export type UserMessageUpdate = z.infer<typeof UserMessageUpdateSchema>;

export const UserMessageUpdateResultSchema = z.object({ updated: z.number().int(), unread: z.number().int() });
export const UnreadCountSchema = z.object({ unread: z.number().int() });

/** Console languages a message can be written in; the inbox answers in the reader's. */
export const MESSAGE_LANGS = ['zh', 'en'] as const;
export type MessageLang = (typeof MESSAGE_LANGS)[number];
const MessageText = z.object({ title: z.string().min(1).max(MESSAGE_TITLE_MAX), content: z.string().max(MESSAGE_CONTENT_MAX) });

/** What another module passes to `messages.send`; `texts` gives the message per language. */
export const SendMessageSchema = z.object({
  title: z.string().min(1).max(MESSAGE_TITLE_MAX),
  content: z.string().max(MESSAGE_CONTENT_MAX),
  texts: z.object({ zh: MessageText.optional(), en: MessageText.optional() }).optional(),
  type: z.string().min(1).max(32),
  reminderMode: z.union([z.literal(1), z.literal(2)]).default(1),
  platform: z.number().int().min(0).max(99).default(0),
});
export type SendMessageInput = z.input<typeof SendMessageSchema>;
