import type { RawSql } from '../../db/client.ts';

export interface WebVersionRow {
  id: string;
  version: string;
  description: string;
  file_count: number;
  bytes: string | number;
  created_at: Date;
}

/** Who did it: a person, or a web-deploy user (`webDeploy`). */
export interface Actor {
  userId: string;
  username: string;
  webDeploy?: true;
}

/** SQL only: console versions, the release history and the deploy log (platform-wide, not a tenant's). */
export function webVersionsRepository(raw: RawSql) {
  return {
    async list(): Promise<WebVersionRow[]> {
      const { rows } = await raw.query<WebVersionRow>('select * from web_versions order by created_at desc');
      return rows;
    },
    async get(id: string): Promise<WebVersionRow | null> {
      const { rows } = await raw.query<WebVersionRow>('select * from web_versions where id = $1', [id]);
      return rows[0] ?? null;
    },
    async insert(v: { version: string; description: string; file_count: number; bytes: number; by: Actor }): Promise<string | null> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into web_versions (version, description, file_count, bytes, created_by, created_by_deploy_user) values ($1, $2, $3, $4, $5, $6)
         on conflict (version) do nothing returning id`,
        [v.version, v.description, v.file_count, v.bytes, v.by.webDeploy ? null : v.by.userId, v.by.webDeploy ? v.by.userId : null],
      );
      return rows[0]?.id ?? null;
    },
    async remove(id: string): Promise<void> {
      await raw.query('delete from web_versions where id = $1', [id]);
    },
    /** The version served now (the newest release), if any. */
    async current(): Promise<string | null> {
      const { rows } = await raw.query<{ version_id: string | null }>('select version_id from web_releases order by id desc limit 1');
      return rows[0]?.version_id ?? null;
    },
    async release(id: string): Promise<void> {
      await raw.query('insert into web_releases (version_id) values ($1)', [id]);
    },
    /** The release before the current one: it becomes the newest again. */
    async rollback(): Promise<string | null> {
      const { rows } = await raw.query<{ id: string; version_id: string }>(
        'select id, version_id from web_releases where version_id is not null order by id desc limit 2',
      );
      if (rows.length < 2) return null;
      await raw.query('delete from web_releases where id = $1', [rows[0].id]);
      return rows[1].version_id;
    },
    /** A deploy log entry: `subject` is the version, or the user or setting the action was about. */
    async log(action: string, subject: string, by: Actor): Promise<void> {
      await raw.query(
        `insert into web_deploy_logs (action, version, user_id, deploy_user_id, by_deploy_user, username)
         values ($1, $2, $3, $4, $5, $6)`,
        [action, subject, by.webDeploy ? null : by.userId, by.webDeploy ? by.userId || null : null, Boolean(by.webDeploy), by.username],
      );
    },
    async logs() {
      const { rows } = await raw.query<{
        id: string;
        action: string;
        version: string;
        username: string;
        role: 'manager' | 'web-deploy';
        created_at: Date;
      }>(
        `select id, action, version, username, case when by_deploy_user then 'web-deploy' else 'manager' end as role, created_at
           from web_deploy_logs order by created_at desc, id limit 500`,
      );
      return rows;
    },
  };
}
export type WebVersionsRepository = ReturnType<typeof webVersionsRepository>;
