import type { RawSql } from '../../db/client.ts';

export interface DeployUserRow {
  id: string;
  username: string;
  password_hash: string;
  failed_logins: number;
  locked_until: Date | null;
  last_login_at: Date | null;
  created_at: Date;
}

/** SQL only: the deploy and server configuration, web-deploy users and their sessions (platform-wide, not a tenant's). */
export function webDeployRepository(raw: RawSql) {
  return {
    async config(): Promise<{ resource_path: string; is_debug: number; server_config: Record<string, string> }> {
      const { rows } = await raw.query<{ resource_path: string; is_debug: number; server_config: Record<string, string> }>(
        'select resource_path, is_debug, server_config from web_deploy_config where id',
      );
      return rows[0] ?? { resource_path: '/can', is_debug: 0, server_config: {} };
    },
    async saveDeployConfig(resourcePath: string, isDebug: number): Promise<void> {
      await raw.query('update web_deploy_config set resource_path = $1, is_debug = $2, updated_at = now() where id', [
        resourcePath,
        isDebug,
      ]);
    },
    async saveServerConfig(config: Record<string, string>): Promise<void> {
      await raw.query('update web_deploy_config set server_config = $1::jsonb, updated_at = now() where id', [JSON.stringify(config)]);
    },

    /** The platform's own tenant: a web-deploy user's calls are the platform's in the operation log. */
    async platformTenant(): Promise<string | null> {
      const { rows } = await raw.query<{ id: string }>('select id from tenants where is_system order by created_at limit 1');
      return rows[0]?.id ?? null;
    },

    async users(): Promise<DeployUserRow[]> {
      const { rows } = await raw.query<DeployUserRow>('select * from web_deploy_users order by username');
      return rows;
    },
    async user(id: string): Promise<DeployUserRow | null> {
      const { rows } = await raw.query<DeployUserRow>('select * from web_deploy_users where id = $1', [id]);
      return rows[0] ?? null;
    },
    async userByName(username: string): Promise<DeployUserRow | null> {
      const { rows } = await raw.query<DeployUserRow>('select * from web_deploy_users where username = $1', [username]);
      return rows[0] ?? null;
    },
    async insertUser(username: string, hash: string, createdBy: string): Promise<DeployUserRow | null> {
      const { rows } = await raw.query<DeployUserRow>(
        `insert into web_deploy_users (username, password_hash, created_by) values ($1, $2, $3)
         on conflict (username) do nothing returning *`,
        [username, hash, createdBy],
      );
      return rows[0] ?? null;
    },
    async deleteUser(id: string): Promise<DeployUserRow | null> {
      const { rows } = await raw.query<DeployUserRow>('delete from web_deploy_users where id = $1 returning *', [id]);
      return rows[0] ?? null;
    },
    async setPassword(id: string, hash: string): Promise<void> {
      await raw.query('update web_deploy_users set password_hash = $2, failed_logins = 0, locked_until = null where id = $1', [id, hash]);
    },
    /** Counts a wrong password; the `lockAfter`-th locks the name for `lockMinutes`. */
    async loginFailed(id: string, lockAfter: number, lockMinutes: number): Promise<void> {
      await raw.query(
        `update web_deploy_users set failed_logins = failed_logins + 1,
                locked_until = case when failed_logins + 1 >= $2 then now() + make_interval(mins => $3) else locked_until end
          where id = $1`,
        [id, lockAfter, lockMinutes],
      );
    },
    async loginSucceeded(id: string): Promise<void> {
      await raw.query('update web_deploy_users set failed_logins = 0, locked_until = null, last_login_at = now() where id = $1', [id]);
    },

    async insertSession(userId: string, tokenHash: string, ttlSeconds: number, ip: string): Promise<Date> {
      const { rows } = await raw.query<{ expires_at: Date }>(
        `insert into web_deploy_sessions (user_id, token_hash, ip, expires_at) values ($1, $2, $3, now() + make_interval(secs => $4))
         returning expires_at`,
        [userId, tokenHash, ip, ttlSeconds],
      );
      return rows[0].expires_at;
    },
    /** The live session of a token, with its user. */
    async session(tokenHash: string): Promise<{ id: string; user_id: string; username: string } | null> {
      const { rows } = await raw.query<{ id: string; user_id: string; username: string }>(
        `select s.id, s.user_id, u.username from web_deploy_sessions s join web_deploy_users u on u.id = s.user_id
          where s.token_hash = $1 and s.ended_at is null and s.expires_at > now()`,
        [tokenHash],
      );
      return rows[0] ?? null;
    },
    async endSession(id: string): Promise<void> {
      await raw.query('update web_deploy_sessions set ended_at = now() where id = $1 and ended_at is null', [id]);
    },
    /** Ends the user's sessions, but `except`. */
    async endSessionsOf(userId: string, except: string | null): Promise<void> {
      await raw.query(
        'update web_deploy_sessions set ended_at = now() where user_id = $1 and ended_at is null and ($2::uuid is null or id <> $2)',
        [userId, except],
      );
    },
    /** Sessions ended or expired over a week ago. */
    async purgeSessions(): Promise<void> {
      await raw.query(`delete from web_deploy_sessions where coalesce(ended_at, expires_at) < now() - interval '7 days'`);
    },
  };
}
export type WebDeployRepository = ReturnType<typeof webDeployRepository>;
