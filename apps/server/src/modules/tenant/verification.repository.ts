import type { RawSql } from '../../db/client.ts';

export interface CodeRow {
  id: string;
  code_hash: string;
  attempts: number;
  expires_at: Date;
  created_at: Date;
}

/** Verification codes are not tenant data (they precede any account): keyed by destination. */
export function verificationRepository(raw: RawSql) {
  return {
    async lastSentTo(destination: string): Promise<Date | null> {
      const { rows } = await raw.query<{ created_at: Date }>(
        'select created_at from verification_codes where destination = $1 order by created_at desc limit 1',
        [destination],
      );
      return rows[0]?.created_at ?? null;
    },

    async countFromIpSince(ip: string, since: Date): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from verification_codes where ip = $1 and created_at > $2',
        [ip, since],
      );
      return rows[0].n;
    },

    async insert(v: { channel: 'sms' | 'email'; destination: string; purpose: string; codeHash: string; ip: string; expiresAt: Date }) {
      // A new code replaces any earlier one for the destination and purpose.
      await raw.query('update verification_codes set consumed_at = now() where destination = $1 and purpose = $2 and consumed_at is null', [
        v.destination,
        v.purpose,
      ]);
      await raw.query(
        'insert into verification_codes (channel, destination, purpose, code_hash, ip, expires_at) values ($1,$2,$3,$4,$5,$6)',
        [v.channel, v.destination, v.purpose, v.codeHash, v.ip, v.expiresAt],
      );
    },

    async latestOpen(destination: string, purpose: string): Promise<CodeRow | null> {
      const { rows } = await raw.query<CodeRow>(
        `select id, code_hash, attempts, expires_at, created_at from verification_codes
         where destination = $1 and purpose = $2 and consumed_at is null order by created_at desc limit 1`,
        [destination, purpose],
      );
      return rows[0] ?? null;
    },

    async addAttempt(id: string) {
      await raw.query('update verification_codes set attempts = attempts + 1 where id = $1', [id]);
    },

    /** Marks used; false when someone else used it first. */
    async consume(id: string): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>(
        'update verification_codes set consumed_at = now() where id = $1 and consumed_at is null returning id',
        [id],
      );
      return rows.length > 0;
    },

    async deleteOlderThan(when: Date) {
      await raw.query('delete from verification_codes where created_at < $1', [when]);
    },
  };
}
export type VerificationRepository = ReturnType<typeof verificationRepository>;
