import type { RawSql } from '../db/client.ts';
import { pushLogRepository } from '../modules/notification/notification.repository.ts';
import { httpSmsTransport } from './http-sms.transport.ts';
import { smtpTransport } from './smtp.transport.ts';

export type Channel = 'email' | 'sms' | 'voice';

export interface OutgoingMessage {
  channel: Channel;
  destination: string;
  /** register | modify | login | audit | alert … */
  purpose: string;
  subject?: string;
  text: string;
  tenantId?: string | null;
}

/** Delivers one message or throws; a transport never writes the push log itself. */
export interface Transport {
  send(msg: OutgoingMessage): Promise<void>;
  close?(): Promise<void> | void;
}

export type PushStatus = 'sent' | 'failed' | 'logged';

export interface Notifier {
  /** Sends through the channel's transport (when configured) and records the push log entry. */
  send(msg: OutgoingMessage): Promise<{ id: string; status: PushStatus }>;
  close(): Promise<void>;
}

export interface NotifierOptions {
  raw: RawSql;
  smtpUrl: string | null;
  mailFrom: string;
  smsUrl: string | null;
  /** Overrides per channel (tests, other providers). */
  transports?: Partial<Record<Channel, Transport>>;
}

/**
 * Every message sent out is recorded in push_logs (spec §7 notification
 * push-log). With no provider configured for a channel nothing leaves the
 * machine and the entry's status is `logged`: that is where an operator reads
 * the code (e.g. on a fresh install).
 */
export function createNotifier(opts: NotifierOptions): Notifier {
  const sms = opts.smsUrl ? httpSmsTransport(opts.smsUrl) : undefined;
  const transports: Partial<Record<Channel, Transport>> = {
    email: opts.smtpUrl ? smtpTransport(opts.smtpUrl, opts.mailFrom) : undefined,
    sms,
    voice: sms,
    ...opts.transports,
  };
  return {
    async send(msg) {
      const transport = transports[msg.channel];
      let status: PushStatus = 'logged';
      let error: string | null = null;
      if (transport) {
        try {
          await transport.send(msg);
          status = 'sent';
        } catch (e) {
          status = 'failed';
          // Provider errors can echo the request; keep a short message only.
          error = String((e as Error)?.message ?? e).slice(0, 300);
        }
      }
      const id = await pushLogRepository(opts.raw).insert({
        tenantId: msg.tenantId ?? null,
        channel: msg.channel,
        destination: msg.destination,
        purpose: msg.purpose,
        subject: msg.subject ?? null,
        text: msg.text,
        status,
        attempts: transport ? 1 : 0,
        error,
        sentAt: status === 'sent' ? new Date() : null,
      });
      return { id, status };
    },
    async close() {
      const seen = new Set<Transport>();
      for (const t of Object.values(transports)) {
        if (!t || seen.has(t)) continue;
        seen.add(t);
        await t.close?.();
      }
    },
  };
}
