import type { RawSql } from '../../db/client.ts';
import type { CommandRow } from '../command/command.repository.ts';

export interface TaskRow {
  id: string;
  tenant_id: string;
  things_id: string;
  batch_id: string | null;
  filename: string;
  size: number | null;
  state: 'sending' | 'device' | 'fetching' | 'done' | 'failed' | 'cancelled' | 'timeout';
  code: string | null;
  message: string | null;
  received: number;
  token: string | null;
  correlation_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface FileRow {
  id: string;
  tenant_id: string;
  things_id: string;
  name: string;
  filename: string;
  size: number;
  sha256: string;
  file_time: number | null;
  stored_at: Date;
}

const TASK = `id, tenant_id, things_id, batch_id, filename, size::float8 as size, state, code, message, received::float8 as received, token,
  correlation_id, created_at, finished_at`;
const FILE = 'id, tenant_id, things_id, name, filename, size::float8 as size, sha256, file_time::float8 as file_time, stored_at';
const OPEN = `('sending','device','fetching')`;

/** SQL only; user calls scoped by tenant, device uploads by their one-time token. */
export function recallRepository(raw: RawSql) {
  return {
    async insertTask(t: {
      tenantId: string;
      thingsId: string;
      batchId: string | null;
      filename: string;
      size: number | null;
      token: string;
      createdBy: string;
      owner: string | null;
    }): Promise<TaskRow> {
      const { rows } = await raw.query<TaskRow>(
        `insert into recall_tasks (tenant_id, things_id, batch_id, filename, size, state, token, created_by, owner)
         values ($1,$2,$3,$4,$5,'sending',$6,$7,$8) returning ${TASK}`,
        [t.tenantId, t.thingsId, t.batchId, t.filename, t.size, t.token, t.createdBy, t.owner],
      );
      return rows[0];
    },
    async setCorrelation(id: string, correlationId: string, state: TaskRow['state']) {
      await raw.query(`update recall_tasks set correlation_id = $2, state = $3, updated_at = now() where id = $1 and state in ${OPEN}`, [
        id,
        correlationId,
        state,
      ]);
    },
    async task(tenantId: string, thingsId: string, id: string): Promise<TaskRow | null> {
      const { rows } = await raw.query<TaskRow>(`select ${TASK} from recall_tasks where tenant_id = $1 and things_id = $2 and id = $3`, [
        tenantId,
        thingsId,
        id,
      ]);
      return rows[0] ?? null;
    },
    async byCorrelation(thingsId: string, correlationId: string): Promise<TaskRow | null> {
      const { rows } = await raw.query<TaskRow>(`select ${TASK} from recall_tasks where things_id = $1 and correlation_id = $2`, [
        thingsId,
        correlationId,
      ]);
      return rows[0] ?? null;
    },
    async byToken(token: string): Promise<TaskRow | null> {
      const { rows } = await raw.query<TaskRow>(`select ${TASK} from recall_tasks where token = $1 and state in ${OPEN}`, [token]);
      return rows[0] ?? null;
    },
    async tasks(tenantId: string, thingsId: string, batchId: string | null, limit: number): Promise<TaskRow[]> {
      const { rows } = await raw.query<TaskRow>(
        `select ${TASK} from recall_tasks where tenant_id = $1 and things_id = $2 and ($3::uuid is null or batch_id = $3)
          order by created_at desc limit $4`,
        [tenantId, thingsId, batchId, limit],
      );
      return rows;
    },
    async progress(id: string, received: number, size: number | null) {
      await raw.query(
        `update recall_tasks set received = $2, size = coalesce($3, size), state = 'fetching', updated_at = now()
          where id = $1 and state in ${OPEN}`,
        [id, received, size],
      );
    },
    async finish(id: string, state: TaskRow['state'], code: string | null, message: string | null, size?: number) {
      const { rows } = await raw.query<TaskRow>(
        `update recall_tasks set state = $2, code = $3, message = $4, size = coalesce($5, size), token = null, finished_at = now(), updated_at = now()
          where id = $1 and state in ${OPEN} returning ${TASK}`,
        [id, state, code, message, size ?? null],
      );
      return rows[0] ?? null;
    },
    /**
     * Open tasks of a stopped server copy (`dead`: SQL on `owner`) whose recall command went out before
     * the copy noted it: linked to it by their upload token, they wait for the device again.
     */
    async linkInterrupted(dead: string, operation: string): Promise<number> {
      const { rows } = await raw.query(
        `update recall_tasks t set correlation_id = c.correlation_id,
                state = case when c.state = 'queued' then 'sending' else 'device' end, updated_at = now()
           from device_commands c
          where t.state in ${OPEN} and t.correlation_id is null and ${dead}
            and c.things_id = t.things_id and c.operation_name = $1 and c.operation_params->>'url' like '%/' || t.token
          returning t.id`,
        [operation],
      );
      return rows.length;
    },
    /** Open tasks of a stopped copy whose command never went out end as failed with the reason. */
    async failUnsent(dead: string, code: string, message: string): Promise<number> {
      const { rows } = await raw.query(
        `update recall_tasks set state = 'failed', code = $1, message = $2, token = null, finished_at = now(), updated_at = now()
          where state in ${OPEN} and correlation_id is null and ${dead} returning id`,
        [code, message],
      );
      return rows.length;
    },
    /** Open tasks whose command the device answered `settledFor` seconds ago or more, not applied yet. */
    async answeredOpen(
      settledFor: number,
    ): Promise<(Pick<TaskRow, 'id' | 'tenant_id' | 'things_id' | 'filename' | 'created_at'> & { command: CommandRow })[]> {
      const { rows } = await raw.query<
        Pick<TaskRow, 'id' | 'tenant_id' | 'things_id' | 'filename' | 'created_at'> & { command: CommandRow }
      >(
        `select t.id, t.tenant_id, t.things_id, t.filename, t.created_at, to_jsonb(c) as command from recall_tasks t
           join device_commands c on c.things_id = t.things_id and c.correlation_id = t.correlation_id
          where t.state in ${OPEN} and c.state = 'answered' and c.updated_at <= now() - make_interval(secs => $1)`,
        [settledFor],
      );
      return rows;
    },
    async upsertFile(f: Omit<FileRow, 'id' | 'stored_at'>): Promise<{ previous: number | null }> {
      const prev = await raw.query<{ size: number }>('select size::float8 as size from recall_files where tenant_id = $1 and name = $2', [
        f.tenant_id,
        f.name,
      ]);
      await raw.query(
        `insert into recall_files (tenant_id, things_id, name, filename, size, sha256, file_time) values ($1,$2,$3,$4,$5,$6,$7)
         on conflict (tenant_id, name) do update set size = excluded.size, sha256 = excluded.sha256, file_time = excluded.file_time,
           stored_at = now()`,
        [f.tenant_id, f.things_id, f.name, f.filename, f.size, f.sha256, f.file_time],
      );
      return { previous: prev.rows[0]?.size ?? null };
    },
    async files(tenantId: string, thingsId: string | null, user: string | null): Promise<FileRow[]> {
      const { rows } = await raw.query<FileRow>(
        `select ${FILE} from recall_files f where tenant_id = $1 and ($2::uuid is null or things_id = $2)
            and ($3::uuid is null or exists (select 1 from user_device_access a where a.user_id = $3 and a.things_id = f.things_id))
          order by stored_at desc limit 10000`,
        [tenantId, thingsId, user],
      );
      return rows;
    },
    async file(tenantId: string, name: string): Promise<FileRow | null> {
      const { rows } = await raw.query<FileRow>(`select ${FILE} from recall_files where tenant_id = $1 and name = $2`, [tenantId, name]);
      return rows[0] ?? null;
    },
    async removeFile(tenantId: string, name: string) {
      await raw.query('delete from recall_files where tenant_id = $1 and name = $2', [tenantId, name]);
    },
    /** The size the device last listed for a file (from the newest answered list command), if any. */
    async listedSize(tenantId: string, thingsId: string, filename: string): Promise<number | null> {
      const { rows } = await raw.query<{ size: number | null }>(
        `select (f->>'size')::float8 as size from device_commands c, jsonb_array_elements(coalesce(c.result->'files', '[]'::jsonb)) f
          where c.tenant_id = $1 and c.things_id = $2 and c.operation_name = 'common_fn.recallFileList' and c.state = 'answered'
            and f->>'name' = $3
          order by c.answered_at desc limit 1`,
        [tenantId, thingsId, filename],
      );
      return rows[0]?.size ?? null;
    },

    /** The state of the command a task waits on. */
    async commandState(
      thingsId: string,
      correlationId: string,
    ): Promise<{ state: string; message: string | null; code: number | null } | null> {
      const c = await raw.query<{ state: string; message: string | null; code: number | null }>(
        'select state, message, code from device_commands where things_id = $1 and correlation_id = $2',
        [thingsId, correlationId],
      );
      return c.rows[0] ?? null;
    },

    /** A file-list command of the tenant's device. */
    async listCommand(tenantId: string, thingsId: string, correlationId: string, operation: string): Promise<CommandRow | null> {
      const { rows } = await raw.query<CommandRow>(
        `select * from device_commands where tenant_id = $1 and things_id = $2 and correlation_id = $3 and operation_name = $4`,
        [tenantId, thingsId, correlationId, operation],
      );
      return rows[0] ?? null;
    },
  };
}

export type RecallRepository = ReturnType<typeof recallRepository>;
