import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface DownloadRow {
  id: string;
  tenant_id: string;
  things_id: string;
  format: 'candump' | 'asc' | 'blf' | 'csv';
  params: { begin_time: number; end_time: number; channels?: number[]; ids?: number[] };
  status: number;
  process_rate: number;
  data_count: number;
  output_count: number;
  data_bytes: number;
  upload_bytes: number;
  estimated_time: number;
  file_path: string | null;
  file_name: string | null;
  error: string | null;
}

export function downloadsRepository(raw: RawSql) {
  return {
    async insert(auth: Auth, thingsId: string, format: string, params: object): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        'insert into download_tasks (tenant_id, things_id, user_id, format, params) values ($1,$2,$3,$4,$5::jsonb) returning id',
        [auth.tenantId, thingsId, auth.userId, format, JSON.stringify(params)],
      );
      return rows[0].id;
    },
    async get(auth: Auth, thingsId: string, id: string): Promise<DownloadRow | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const { rows } = await raw.query<DownloadRow>('select * from download_tasks where tenant_id = $1 and things_id = $2 and id = $3', [
        auth.tenantId,
        thingsId,
        id,
      ]);
      return rows[0] ?? null;
    },
    /** Progress written by the export job (its task id came from `insert`, scoped there). */
    async progress(id: string, p: Partial<Omit<DownloadRow, 'id' | 'tenant_id' | 'things_id' | 'format' | 'params'>>) {
      const cols = Object.keys(p);
      if (!cols.length) return;
      const sets = cols.map((c, i) => `${c} = $${i + 2}`);
      const done = p.status === 3 || p.status === 6 || p.status === 7;
      await raw.query(`update download_tasks set ${sets.join(', ')}${done ? ', finished_at = now()' : ''} where id = $1`, [
        id,
        ...cols.map((c) => (p as Record<string, unknown>)[c]),
      ]);
    },
  };
}
