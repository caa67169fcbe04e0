import type { RawSql } from '../../db/client.ts';

export interface OpLogFilter {
  userId?: string;
  username?: string;
  method?: string;
  from?: Date;
  to?: Date;
}

interface OpLogRow {
  id: number;
  user_id: string | null;
  username: string | null;
  method: string;
  path: string;
  status: number;
  ip: string | null;
  created_at: Date;
  super_session: boolean;
}

export type OpLogRepository = ReturnType<typeof opLogRepository>;

export function opLogRepository(raw: RawSql) {
  return {
    async page(tenantId: string, f: OpLogFilter, page: number, size: number) {
      const params: unknown[] = [tenantId];
      const parts = ['tenant_id = $1'];
      const add = (sql: string, v: unknown) => {
        params.push(v);
        parts.push(sql.replace('?', `$${params.length}`));
      };
      if (f.userId) add('user_id = ?', f.userId);
      if (f.username) add('username = ?', f.username);
      if (f.method) add('method = ?', f.method);
      if (f.from) add('created_at >= ?', f.from);
      if (f.to) add('created_at <= ?', f.to);
      const where = parts.join(' and ');
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from op_logs where ${where}`, params);
      const { rows } = await raw.query<OpLogRow>(
        `select id::int as id, user_id, username, method, path, status, ip, created_at, super_session from op_logs where ${where}
         order by created_at desc, id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, size, (page - 1) * size],
      );
      return { total: total.rows[0].n, rows };
    },

    /** One change made through the API. */
    async insert(e: {
      tenantId: string;
      userId: string;
      username: string;
      method: string;
      path: string;
      status: number;
      ip: string;
      /** Made in a super-session (by the system manager named). */
      superSession?: boolean;
    }): Promise<void> {
      await raw.query(
        'insert into op_logs(tenant_id, user_id, username, method, path, status, ip, super_session) values ($1,$2,$3,$4,$5,$6,$7,$8)',
        [e.tenantId, e.userId, e.username, e.method, e.path, e.status, e.ip, e.superSession ?? false],
      );
    },
  };
}
