import type { RawSql } from '../db/client.ts';
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
      const { rows } = await opts.raw.query<{ id: string }>(
        `insert into push_logs (tenant_id, channel, destination, purpose, subject, text, status, attempts, error, sent_at)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) returning id`,
        [
          msg.tenantId ?? null,
          msg.channel,
          msg.destination,
          msg.purpose,
          msg.subject ?? null,
          msg.text,
          status,
          transport ? 1 : 0,
          error,
          status === 'sent' ? new Date() : null,
        ],
      );
      return { id: rows[0].id, status };
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
