import type { RawSql } from '../../db/client.ts';

export interface WebVersionRow {
  id: string;
  version: string;
  description: string;
  file_count: number;
  bytes: string | number;
  created_at: Date;
  /** The files as uploaded (null for versions uploaded before the list was kept). */
  manifest: WebFile[] | null;
}

/** A file of a console version: its path in the bundle, size and SHA-256 (hex). */
export interface WebFile {
  path: string;
  bytes: number;
  sha256: string;
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
    async insert(v: {
      version: string;
      description: string;
      file_count: number;
      bytes: number;
      manifest: WebFile[];
      by: Actor;
    }): Promise<string | null> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into web_versions (version, description, file_count, bytes, manifest, created_by, created_by_deploy_user)
         values ($1, $2, $3, $4, $5, $6, $7) on conflict (version) do nothing returning id`,
        [
          v.version,
          v.description,
          v.file_count,
          v.bytes,
          JSON.stringify(v.manifest),
          v.by.webDeploy ? null : v.by.userId,
          v.by.webDeploy ? v.by.userId : null,
        ],
      );
      return rows[0]?.id ?? null;
    },
    async remove(id: string): Promise<void> {
      await raw.query('delete from web_versions where id = $1', [id]);
    },
    /** Who uploaded a version: the person's or the web-deploy user's name, and which. */
    async uploader(id: string): Promise<{ username: string; role: 'manager' | 'web-deploy' } | null> {
      const { rows } = await raw.query<{ username: string | null; role: 'manager' | 'web-deploy' }>(
        `select coalesce(u.username, d.username) as username,
                case when v.created_by_deploy_user is not null then 'web-deploy' else 'manager' end as role
           from web_versions v left join users u on u.id = v.created_by left join web_deploy_users d on d.id = v.created_by_deploy_user
          where v.id = $1`,
        [id],
      );
      return rows[0]?.username ? { username: rows[0].username, role: rows[0].role } : null;
    },
    /** The version served now (the newest release), if any: null is the console built with the server. */
    async current(): Promise<string | null> {
      const { rows } = await raw.query<{ version_id: string | null }>('select version_id from web_releases order by id desc limit 1');
      return rows[0]?.version_id ?? null;
    },
    /** Serves a version from now on; null serves the console built with the server. */
    async release(id: string | null): Promise<void> {
      await raw.query('insert into web_releases (version_id) values ($1)', [id]);
    },
    /**
     * Takes back the newest release, so the one before it is served again (the console built with
     * the server when there is none); false when nothing is released.
     */
    async rollback(): Promise<{ id: string | null } | null> {
      const { rows } = await raw.query<{ id: string; version_id: string | null }>(
        'select id, version_id from web_releases order by id desc limit 2',
      );
      if (rows.length === 0 || (rows.length === 1 && rows[0].version_id === null)) return null;
      await raw.query('delete from web_releases where id = $1', [rows[0].id]);
      return { id: rows[1]?.version_id ?? null };
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
