import type { RawSql } from '../../db/client.ts';

export interface JobRow {
  id: string;
  tenant_id: string;
  things_id: string;
  ecu_id: string;
  channel: number;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  step: string | null;
  progress: number;
  reason: string | null;
  created_at: Date;
  finished_at: Date | null;
}
const JOB = 'id, tenant_id, things_id, ecu_id, channel, state, step, progress, reason, created_at, finished_at';

export interface JobChange {
  state?: string;
  step?: string;
  progress?: number;
  reason?: string;
}

/** ECU flashing jobs (one running job per device channel). */
export function udsRepository(raw: RawSql) {
  return {
    /** Throws the driver's 23505 when a job is already running on the channel. */
    async insertJob(j: {
      tenantId: string;
      thingsId: string;
      ecuId: string;
      firmwareFileId: string;
      channel: number;
      createdBy: string | null;
      owner: string | null;
    }): Promise<JobRow> {
      const { rows } = await raw.query<JobRow>(
        `insert into ecu_flash_jobs (tenant_id, things_id, ecu_id, firmware_file_id, channel, state, step, created_by, owner)
           values ($1,$2,$3,$4,$5,'running','extended-session',$6,$7) returning ${JOB}`,
        [j.tenantId, j.thingsId, j.ecuId, j.firmwareFileId, j.channel, j.createdBy, j.owner],
      );
      return rows[0];
    },

    /** Null when the job is no longer running. */
    async updateRunning(id: string, s: JobChange): Promise<JobRow | null> {
      const { rows } = await raw.query<JobRow>(
        `update ecu_flash_jobs set state = coalesce($2, state), step = coalesce($3, step), progress = coalesce($4, progress),
                  reason = coalesce($5, reason), finished_at = case when $2 in ('done','failed','cancelled') then now() else finished_at end,
                  updated_at = now()
            where id = $1 and state = 'running' returning ${JOB}`,
        [id, s.state ?? null, s.step ?? null, s.progress ?? null, s.reason ?? null],
      );
      return rows[0] ?? null;
    },

    async cancelRequested(id: string): Promise<boolean> {
      const c = await raw.query<{ c: boolean }>('select cancel_requested as c from ecu_flash_jobs where id = $1', [id]);
      return Boolean(c.rows[0]?.c);
    },

    /** Running jobs of stopped copies (`dead` is the SQL test on `owner`) end as failed with `reason`. */
    async failOrphaned(dead: string, reason: string): Promise<JobRow[]> {
      const { rows } = await raw.query<JobRow>(
        `update ecu_flash_jobs set state = 'failed', reason = $1, finished_at = now(), updated_at = now()
          where state = 'running' and ${dead} returning ${JOB}`,
        [reason],
      );
      return rows;
    },

    async job(tenantId: string, thingsId: string, id: string): Promise<JobRow | null> {
      const { rows } = await raw.query<JobRow>(`select ${JOB} from ecu_flash_jobs where id = $1 and tenant_id = $2 and things_id = $3`, [
        id,
        tenantId,
        thingsId,
      ]);
      return rows[0] ?? null;
    },

    /** Null when the job is not running. */
    async requestCancel(tenantId: string, thingsId: string, id: string): Promise<JobRow | null> {
      const { rows } = await raw.query<JobRow>(
        `update ecu_flash_jobs set cancel_requested = true where id = $1 and tenant_id = $2 and things_id = $3 and state = 'running' returning ${JOB}`,
        [id, tenantId, thingsId],
      );
      return rows[0] ?? null;
    },
  };
}
