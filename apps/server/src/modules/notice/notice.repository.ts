import type { RawSql } from '../../db/client.ts';

export interface NoticeRow {
  id: string;
  kind: 'notice' | 'upgrade';
  title: string;
  content: string;
  platform: number | null;
  version: string | null;
  startTime: Date | null;
  endTime: Date | null;
  isShow: boolean;
  changes: string[];
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new notice; a field left undefined takes the column's default. */
export interface NoticeInsert {
  kind?: 'notice' | 'upgrade';
  title: string;
  content?: string;
  platform?: number | null;
  version?: string | null;
  startTime?: Date | null;
  endTime?: Date | null;
  isShow?: boolean;
  changes?: string[];
  createdBy?: string | null;
}

const COLS = `notices.id, notices.kind, notices.title, notices.content, notices.platform, notices.version,
  notices.start_time as "startTime", notices.end_time as "endTime", notices.is_show as "isShow", notices.changes,
  notices.created_by as "createdBy", notices.created_at as "createdAt", notices.updated_at as "updatedAt"`;

const COLUMN: Record<keyof NoticeInsert, string> = {
  kind: 'kind',
  title: 'title',
  content: 'content',
  platform: 'platform',
  version: 'version',
  startTime: 'start_time',
  endTime: 'end_time',
  isShow: 'is_show',
  changes: 'changes',
  createdBy: 'created_by',
};

/** The defined fields as columns and parameters ($first on); `changes` is jsonb. */
function fields(v: Partial<NoticeInsert>, first: number): { columns: string[]; values: string[]; params: unknown[] } {
  const columns: string[] = [];
  const values: string[] = [];
  const params: unknown[] = [];
  for (const key of Object.keys(COLUMN) as (keyof NoticeInsert)[]) {
    const x = v[key];
    if (x === undefined) continue;
    columns.push(COLUMN[key]);
    params.push(key === 'changes' ? JSON.stringify(x) : x);
    values.push(key === 'changes' ? `$${first + params.length - 1}::jsonb` : `$${first + params.length - 1}`);
  }
  return { columns, values, params };
}

/**
 * Notices are platform data written by system managers, not tenant data; the
 * per-user state is keyed by the user, whom the service has checked is the caller.
 */
export function noticeRepository(raw: RawSql) {
  return {
    async insert(v: NoticeInsert): Promise<NoticeRow> {
      const f = fields(v, 1);
      const { rows } = await raw.query<NoticeRow>(
        `insert into notices (${f.columns.join(', ')}) values (${f.values.join(', ')}) returning ${COLS}`,
        f.params,
      );
      return rows[0];
    },

    async get(id: string): Promise<NoticeRow | null> {
      const { rows } = await raw.query<NoticeRow>(`select ${COLS} from notices where notices.id = $1 limit 1`, [id]);
      return rows[0] ?? null;
    },

    async update(id: string, v: Partial<NoticeInsert>): Promise<NoticeRow | null> {
      const f = fields(v, 3);
      const set = f.columns.map((c, i) => `${c} = ${f.values[i]}`);
      const { rows } = await raw.query<NoticeRow>(
        `update notices set ${[...set, 'updated_at = $2'].join(', ')} where notices.id = $1 returning ${COLS}`,
        [id, new Date(), ...f.params],
      );
      return rows[0] ?? null;
    },

    async remove(id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from notices where id = $1 returning id', [id]);
      return rows.length > 0;
    },

    async page(f: { kind?: string; platform?: number }, offset: number, limit: number) {
      const params: unknown[] = [];
      const parts: string[] = [];
      if (f.kind) {
        params.push(f.kind);
        parts.push(`notices.kind = $${params.length}`);
      }
      if (f.platform !== undefined) {
        params.push(f.platform);
        parts.push(`notices.platform = $${params.length}`);
      }
      const w = parts.length ? `where ${parts.join(' and ')}` : '';
      const [list, total] = await Promise.all([
        raw.query<NoticeRow>(
          `select ${COLS} from notices ${w} order by notices.created_at desc, notices.id desc
            offset $${params.length + 1} limit $${params.length + 2}`,
          [...params, offset, limit],
        ),
        raw.query<{ n: number }>(`select count(*)::int as n from notices ${w}`, params),
      ]);
      return { rows: list.rows, total: Number(total.rows[0].n) };
    },

    /** The platform (0 standard, 1 extension) of a tenant; null when there is no such tenant. */
    async tenantPlatform(tenantId: string): Promise<number | null> {
      const { rows } = await raw.query<{ platform: number }>('select platform from tenants where id = $1 limit 1', [tenantId]);
      return rows[0] ? Number(rows[0].platform) : null;
    },

    async userExists(userId: string): Promise<boolean> {
      const { rows } = await raw.query('select id from users where id = $1 limit 1', [userId]);
      return rows.length > 0;
    },

    async setUserState(noticeId: string, userId: string, noLongerShow: boolean): Promise<void> {
      await raw.query(
        `insert into notice_user_states (notice_id, user_id, no_longer_show) values ($1, $2, $3)
         on conflict (notice_id, user_id) do update set no_longer_show = $3, updated_at = $4`,
        [noticeId, userId, noLongerShow, new Date()],
      );
    },

    /**
     * Notices to show `userId` at `now`: shown, for its platform (or all), not
     * ended, started (upgrade notices show ahead of their window), and not hidden
     * for good — an upgrade notice counts as hidden when the user hid any upgrade
     * notice of the same version.
     */
    async activeFor(userId: string, now: Date, platform: number | undefined): Promise<NoticeRow[]> {
      const params: unknown[] = [userId, now];
      let forPlatform = '';
      if (platform !== undefined) {
        params.push(platform);
        forPlatform = 'and (notices.platform is null or notices.platform = $3)';
      }
      const { rows } = await raw.query<NoticeRow>(
        `select ${COLS} from notices
          where notices.is_show = true
            and (notices.end_time is null or notices.end_time > $2)
            and (notices.kind = 'upgrade' or notices.start_time is null or notices.start_time <= $2)
            and not exists (
              select 1 from notice_user_states s join notices h on h.id = s.notice_id
               where s.user_id = $1 and s.no_longer_show
                 and (s.notice_id = notices.id
                      or (notices.kind = 'upgrade' and h.kind = 'upgrade' and h.version = notices.version)))
            ${forPlatform}
          order by notices.kind = 'upgrade' desc, coalesce(notices.start_time, notices.created_at) desc,
                   notices.created_at desc, notices.id desc`,
        params,
      );
      return rows;
    },
  };
}
export type NoticeRepository = ReturnType<typeof noticeRepository>;
