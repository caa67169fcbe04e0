import type { RawSql } from '../../db/client.ts';

export interface StateRow {
  code_verifier: string;
  nonce: string;
  link_user_id: string | null;
  pre_path: string | null;
  pre_query: string | null;
  expires_at: Date;
  browser_state_hash: string | null;
}

/** What a provider's return left for the browser that started the flow to exchange. */
export interface CodeRow {
  browser_state_hash: string;
  kind: 'login' | 'link';
  user_id: string;
  issuer: string | null;
  subject: string | null;
  pre_path: string | null;
  pre_query: string | null;
  expires_at: Date;
}

export interface LinkedAccount {
  user_id: string;
  user_status: number;
  tenant_status: number;
  belong_platform: string | null;
}

/** Third-party login: the flows in progress and the (issuer, subject) links of accounts. */
export function oidcRepository(raw: RawSql) {
  return {
    /** Drops the flows nobody finished, then stores a new one. */
    async startFlow(f: {
      state: string;
      codeVerifier: string;
      nonce: string;
      linkUserId: string | null;
      prePath: string | null;
      preQuery: string | null;
      expiresAt: Date;
      browserStateHash: string;
    }): Promise<void> {
      await raw.query('delete from oidc_states where expires_at < now()');
      await raw.query('delete from oidc_codes where expires_at < now()');
      await raw.query(
        `insert into oidc_states(state, code_verifier, nonce, link_user_id, pre_path, pre_query, expires_at, browser_state_hash)
         values ($1,$2,$3,$4,$5,$6,$7,$8)`,
        [f.state, f.codeVerifier, f.nonce, f.linkUserId, f.prePath, f.preQuery, f.expiresAt, f.browserStateHash],
      );
    },

    /** Keeps a return's one-time code (by its digest) for the browser to exchange. */
    async putCode(codeHash: string, c: Omit<CodeRow, 'expires_at'>, expiresAt: Date): Promise<void> {
      await raw.query(
        `insert into oidc_codes(code_hash, browser_state_hash, kind, user_id, issuer, subject, pre_path, pre_query, expires_at)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
        [codeHash, c.browser_state_hash, c.kind, c.user_id, c.issuer, c.subject, c.pre_path, c.pre_query, expiresAt],
      );
    },

    /** The code of this digest, used once: it is deleted as it is read, whoever presents it. */
    async takeCode(codeHash: string): Promise<CodeRow | null> {
      const { rows } = await raw.query<CodeRow>('delete from oidc_codes where code_hash = $1 returning *', [codeHash]);
      return rows[0] ?? null;
    },

    /** The flow of this state, used once: it is deleted as it is read. */
    async takeFlow(state: string): Promise<StateRow | null> {
      const { rows } = await raw.query<StateRow>('delete from oidc_states where state = $1 returning *', [state]);
      return rows[0] ?? null;
    },

    /** The account this identity is linked to, if any. */
    async linkedUser(issuer: string, subject: string): Promise<string | null> {
      const taken = await raw.query<{ user_id: string }>('select user_id from user_identities where issuer = $1 and subject = $2', [
        issuer,
        subject,
      ]);
      return taken.rows[0]?.user_id ?? null;
    },

    /** Replaces the user's link with this issuer in one transaction. */
    async link(userId: string, issuer: string, subject: string): Promise<void> {
      await raw.transaction(async (tx) => {
        await tx.query('delete from user_identities where user_id = $1 and issuer = $2', [userId, issuer]);
        await tx.query('insert into user_identities(issuer, subject, user_id) values ($1, $2, $3)', [issuer, subject, userId]);
      });
    },

    async account(issuer: string, subject: string): Promise<LinkedAccount | null> {
      const found = await raw.query<LinkedAccount>(
        `select u.id as user_id, u.status as user_status, t.status as tenant_status, t.belong_platform
           from user_identities i join users u on u.id = i.user_id join tenants t on t.id = u.tenant_id
          where i.issuer = $1 and i.subject = $2`,
        [issuer, subject],
      );
      return found.rows[0] ?? null;
    },

    async linkOf(userId: string, issuer: string): Promise<{ issuer: string; subject: string; created_at: Date } | null> {
      const { rows } = await raw.query<{ issuer: string; subject: string; created_at: Date }>(
        'select issuer, subject, created_at from user_identities where user_id = $1 and issuer = $2',
        [userId, issuer],
      );
      return rows[0] ?? null;
    },

    async unlink(userId: string): Promise<void> {
      await raw.query('delete from user_identities where user_id = $1', [userId]);
    },
  };
}
