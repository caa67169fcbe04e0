import type { RawSql } from '../../db/client.ts';
import type { Channel, OutgoingMessage } from '../../notify/notifier.ts';

export interface QueuedMessage {
  channel: Channel;
  destination: string;
  purpose: string;
  subject: string | null;
  text: string;
  tenant_id: string | null;
  attempts: number;
}

/** The alert outbox: push log rows and the retry times of those not sent yet. */
export function outboxRepository(raw: RawSql) {
  return {
    /** Holds a due message until `until` for this copy; false when it is not due or another copy holds it. */
    async claim(id: string, now: Date, until: Date): Promise<boolean> {
      const claim = await raw.query<{ push_log_id: string }>(
        'update alert_outbox set next_at = $3 where push_log_id = $1 and next_at <= $2 returning push_log_id',
        [id, now, until],
      );
      return claim.rows.length > 0;
    },

    async message(id: string): Promise<QueuedMessage | null> {
      const { rows } = await raw.query<QueuedMessage>(
        'select channel, destination, purpose, subject, text, tenant_id, attempts from push_logs where id = $1',
        [id],
      );
      return rows[0] ?? null;
    },

    /** The message is done (logged, sent or failed for good): it leaves the outbox. */
    async markLogged(id: string): Promise<void> {
      await raw.query(`update push_logs set status = 'logged' where id = $1`, [id]);
      await raw.query('delete from alert_outbox where push_log_id = $1', [id]);
    },

    async markFailed(id: string, attempts: number, error: string): Promise<void> {
      await raw.query(`update push_logs set status = 'failed', attempts = $2, error = $3 where id = $1`, [id, attempts, error]);
      await raw.query('delete from alert_outbox where push_log_id = $1', [id]);
    },

    async retryAt(id: string, attempts: number, error: string, at: Date): Promise<void> {
      await raw.query(`update push_logs set status = 'queued', attempts = $2, error = $3 where id = $1`, [id, attempts, error]);
      await raw.query('update alert_outbox set next_at = $2 where push_log_id = $1', [id, at]);
    },

    async markSent(id: string, attempts: number, at: Date): Promise<void> {
      await raw.query(`update push_logs set status = 'sent', attempts = $2, error = null, sent_at = $3 where id = $1`, [id, attempts, at]);
      await raw.query('delete from alert_outbox where push_log_id = $1', [id]);
    },

    /** Up to 100 messages whose retry time has come, the oldest first. */
    async due(now: Date): Promise<string[]> {
      const { rows } = await raw.query<{ push_log_id: string }>(
        'select push_log_id from alert_outbox where next_at <= $1 order by next_at limit 100',
        [now],
      );
      return rows.map((r) => r.push_log_id);
    },

    /** A queued push log row and its outbox entry, in one transaction. */
    async enqueue(msg: OutgoingMessage, now: Date): Promise<string> {
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `insert into push_logs (tenant_id, channel, destination, purpose, subject, text, status, attempts, created_at)
           values ($1,$2,$3,$4,$5,$6,'queued',0,$7) returning id`,
          [msg.tenantId ?? null, msg.channel, msg.destination, msg.purpose, msg.subject ?? null, msg.text, now],
        );
        await tx.query('insert into alert_outbox (push_log_id, next_at) values ($1, $2)', [rows[0].id, now]);
        return rows[0].id;
      });
    },

    /** A message not sent, recorded as failed with the reason. */
    async refused(msg: OutgoingMessage, reason: string, at: Date): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into push_logs (tenant_id, channel, destination, purpose, subject, text, status, attempts, error, created_at)
         values ($1,$2,$3,$4,$5,$6,'failed',0,$7,$8) returning id`,
        [msg.tenantId ?? null, msg.channel, msg.destination, msg.purpose, msg.subject ?? null, msg.text, reason, at],
      );
      return rows[0].id;
    },
  };
}
