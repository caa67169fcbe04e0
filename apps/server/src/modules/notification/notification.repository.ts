import type { RawSql } from '../../db/client.ts';

interface PushLogRow {
  id: string;
  tenant_id: string | null;
  channel: string;
  destination: string;
  purpose: string;
  subject: string | null;
  text: string;
  status: string;
  error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

/** The platform-wide push log: read by system managers only (the route's key is system scope). */
export function pushLogRepository(raw: RawSql) {
  return {
    async page(f: { destination?: string; purpose?: string }, page: number, size: number) {
      const params: unknown[] = [];
      const parts = ['true'];
      if (f.destination) {
        params.push(f.destination.trim().toLowerCase());
        parts.push(`lower(destination) = $${params.length}`);
      }
      if (f.purpose) {
        params.push(f.purpose);
        parts.push(`purpose = $${params.length}`);
      }
      const where = parts.join(' and ');
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from push_logs where ${where}`, params);
      const { rows } = await raw.query<PushLogRow>(
        `select id, tenant_id, channel, destination, purpose, subject, text, status, error, created_at, sent_at from push_logs
         where ${where} order by created_at desc, id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, size, (page - 1) * size],
      );
      return { total: total.rows[0].n, rows };
    },

    /** Records one message sent (or only logged) and returns its id. */
    async insert(v: {
      tenantId: string | null;
      channel: string;
      destination: string;
      purpose: string;
      subject: string | null;
      text: string;
      status: string;
      attempts: number;
      error: string | null;
      sentAt: Date | null;
    }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into push_logs (tenant_id, channel, destination, purpose, subject, text, status, attempts, error, sent_at)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) returning id`,
        [v.tenantId, v.channel, v.destination, v.purpose, v.subject, v.text, v.status, v.attempts, v.error, v.sentAt],
      );
      return rows[0].id;
    },
  };
}
