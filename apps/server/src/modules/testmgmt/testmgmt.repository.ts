import type { RoutineStep, TestRunState, TestVerdict } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

/** Every query of test management, scoped by the tenant (docs/decisions/0110). */

export interface ScriptRow {
  id: string;
  tenant_id: string;
  name: string;
  notes: string;
  content: string;
  version: number;
  routines: number;
  created_at: Date;
  updated_at: Date;
}

export interface ScriptVersionRow {
  script_id: string;
  version: number;
  content: string;
  notes: string;
  created_by: string | null;
  created_at: Date;
}

export interface RoutineRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  steps: RoutineStep[];
  script_id: string;
  script_name: string;
  params: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface TestWindow {
  from: number;
  to: number;
}

/** Where a step is, kept so that a run resumes after a restart. */
export interface StepState {
  /** Send steps: the command issued. */
  correlation_id?: string;
  /** Wait and collect steps: when the step began and when it ends (epoch ms). */
  from?: number;
  until?: number;
}

export interface RunRow {
  id: string;
  tenant_id: string;
  batch_id: string;
  routine_id: string | null;
  routine_name: string;
  things_id: string;
  things_name: string;
  state: TestRunState;
  dry_run: boolean;
  steps: RoutineStep[];
  script_id: string | null;
  script_name: string;
  script_version: number;
  params: Record<string, unknown>;
  step: number;
  step_state: StepState | null;
  windows: TestWindow[];
  progress: number;
  verdict: TestVerdict | null;
  reason: string | null;
  reason_code: string | null;
  cancel_requested: boolean;
  owner: string | null;
  created_by: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface ReportRow {
  run_id: string;
  verdict: TestVerdict;
  metrics: unknown[];
  tables: unknown[];
  checks: unknown[];
  charts: unknown[];
  log: string;
  error: { kind: string; message: string; line: number | null } | null;
  frames: number;
  created_at: Date;
}

export interface BindingRow {
  channel: number;
  dbc_id: string;
  content: string;
  version: number;
}

const SCRIPT_COLS = `s.id, s.tenant_id, s.name, s.notes, s.content, s.version, s.created_at, s.updated_at,
  (select count(*)::int from test_routines r where r.script_id = s.id) as routines`;

const ROUTINE_COLS = `r.id, r.tenant_id, r.name, r.description, r.steps, r.script_id, s.name as script_name, r.params, r.created_at, r.updated_at`;

const RUN_COLS = `r.id, r.tenant_id, r.batch_id, r.routine_id, r.routine_name, r.things_id, coalesce(t.name, '') as things_name, r.state,
  r.dry_run, r.steps, r.script_id, r.script_name, r.script_version, r.params, r.step, r.step_state, r.windows, r.progress, r.verdict,
  r.reason, r.reason_code, r.cancel_requested, r.owner, r.created_by, r.created_at, r.started_at, r.finished_at`;

const RUN_FROM = 'test_runs r left join things t on t.id = r.things_id';

/** Running (past the queue, not finished). */
const RUNNING = `('sending', 'collecting', 'analyzing')`;

export interface RunFilter {
  routineId?: string;
  thingsId?: string;
  batchId?: string;
  state?: string;
  verdict?: string;
  from?: number;
  to?: number;
}

export function testmgmtRepository(raw: RawSql) {
  return {
    // ── scripts ─────────────────────────────────────────────────────────────
    async scriptPage(tenantId: string, name: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [tenantId];
      let w = 's.tenant_id = $1';
      if (name) w += ` and strpos(lower(s.name), lower($${params.push(name)})) > 0`;
      const { rows } = await raw.query<ScriptRow>(
        `select ${SCRIPT_COLS} from test_scripts s where ${w} order by s.updated_at desc, s.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from test_scripts s where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    async scriptCount(tenantId: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from test_scripts where tenant_id = $1', [tenantId]);
      return rows[0].n;
    },

    async script(tenantId: string, id: string): Promise<ScriptRow | null> {
      const { rows } = await raw.query<ScriptRow>(`select ${SCRIPT_COLS} from test_scripts s where s.tenant_id = $1 and s.id = $2`, [
        tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async scriptNameTaken(tenantId: string, name: string, exceptId: string | null = null): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from test_scripts where tenant_id = $1 and name = $2 and ($3::uuid is null or id <> $3::uuid)',
        [tenantId, name, exceptId],
      );
      return rows.length > 0;
    },

    /** Inserts a script and its version 1 (in the caller's transaction). */
    async insertScript(tenantId: string, userId: string | null, s: { name: string; notes: string; content: string }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into test_scripts (tenant_id, name, notes, content, version, created_by) values ($1, $2, $3, $4, 1, $5) returning id`,
        [tenantId, s.name, s.notes, s.content, userId],
      );
      const id = rows[0].id;
      await raw.query(
        `insert into test_script_versions (tenant_id, script_id, version, content, notes, created_by) values ($1, $2, 1, $3, $4, $5)`,
        [tenantId, id, s.content, s.notes, userId],
      );
      return id;
    },

    /**
     * Saves a script: a changed content becomes the next version (kept with its notes), a change of
     * name or notes alone keeps the version. Returns false when the script is gone.
     */
    async updateScript(tenantId: string, id: string, userId: string | null, s: { name: string; notes: string; content: string }) {
      const { rows } = await raw.query<{ version: number; changed: boolean }>(
        `with o as (select id, content from test_scripts where tenant_id = $1 and id = $2 for update)
         update test_scripts x set name = $3, notes = $4, content = $5,
                version = x.version + (case when o.content is distinct from $5 then 1 else 0 end), updated_at = now()
           from o where x.id = o.id
         returning x.version, o.content is distinct from $5 as changed`,
        [tenantId, id, s.name, s.notes, s.content],
      );
      const r = rows[0];
      if (!r) return false;
      if (r.changed)
        await raw.query(
          `insert into test_script_versions (tenant_id, script_id, version, content, notes, created_by) values ($1, $2, $3, $4, $5, $6)`,
          [tenantId, id, r.version, s.content, s.notes, userId],
        );
      return true;
    },

    async deleteScript(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from test_scripts where tenant_id = $1 and id = $2 returning id', [tenantId, id]);
      return rows.length > 0;
    },

    async scriptVersions(tenantId: string, id: string): Promise<ScriptVersionRow[]> {
      const { rows } = await raw.query<ScriptVersionRow>(
        `select script_id, version, '' as content, notes, created_by, created_at from test_script_versions
          where tenant_id = $1 and script_id = $2 order by version desc`,
        [tenantId, id],
      );
      return rows;
    },

    async scriptVersion(tenantId: string, id: string, version: number): Promise<ScriptVersionRow | null> {
      const { rows } = await raw.query<ScriptVersionRow>(
        `select script_id, version, content, notes, created_by, created_at from test_script_versions
          where tenant_id = $1 and script_id = $2 and version = $3`,
        [tenantId, id, version],
      );
      return rows[0] ?? null;
    },

    // ── routines ────────────────────────────────────────────────────────────
    async routinePage(tenantId: string, q: { name?: string; scriptId?: string }, offset: number, limit: number) {
      const params: unknown[] = [tenantId];
      let w = 'r.tenant_id = $1';
      if (q.name) w += ` and strpos(lower(r.name), lower($${params.push(q.name)})) > 0`;
      if (q.scriptId) w += ` and r.script_id = $${params.push(q.scriptId)}`;
      const { rows } = await raw.query<RoutineRow>(
        `select ${ROUTINE_COLS} from test_routines r join test_scripts s on s.id = r.script_id where ${w}
          order by r.updated_at desc, r.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from test_routines r where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    async routine(tenantId: string, id: string): Promise<RoutineRow | null> {
      const { rows } = await raw.query<RoutineRow>(
        `select ${ROUTINE_COLS} from test_routines r join test_scripts s on s.id = r.script_id where r.tenant_id = $1 and r.id = $2`,
        [tenantId, id],
      );
      return rows[0] ?? null;
    },

    async routineNameTaken(tenantId: string, name: string, exceptId: string | null = null): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from test_routines where tenant_id = $1 and name = $2 and ($3::uuid is null or id <> $3::uuid)',
        [tenantId, name, exceptId],
      );
      return rows.length > 0;
    },

    async insertRoutine(
      tenantId: string,
      userId: string | null,
      r: { name: string; description: string; steps: RoutineStep[]; script_id: string; params: Record<string, unknown> },
    ): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into test_routines (tenant_id, name, description, steps, script_id, params, created_by)
         values ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7) returning id`,
        [tenantId, r.name, r.description, JSON.stringify(r.steps), r.script_id, JSON.stringify(r.params), userId],
      );
      return rows[0].id;
    },

    async updateRoutine(
      tenantId: string,
      id: string,
      r: { name: string; description: string; steps: RoutineStep[]; script_id: string; params: Record<string, unknown> },
    ): Promise<boolean> {
      const { rows } = await raw.query(
        `update test_routines set name = $3, description = $4, steps = $5::jsonb, script_id = $6, params = $7::jsonb, updated_at = now()
          where tenant_id = $1 and id = $2 returning id`,
        [tenantId, id, r.name, r.description, JSON.stringify(r.steps), r.script_id, JSON.stringify(r.params)],
      );
      return rows.length > 0;
    },

    async deleteRoutine(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from test_routines where tenant_id = $1 and id = $2 returning id', [tenantId, id]);
      return rows.length > 0;
    },

    // ── runs ────────────────────────────────────────────────────────────────
    async insertRun(
      tenantId: string,
      userId: string | null,
      r: {
        batchId: string;
        routineId: string;
        routineName: string;
        thingsId: string;
        dryRun: boolean;
        steps: RoutineStep[];
        scriptId: string;
        scriptName: string;
        scriptVersion: number;
        scriptContent: string;
        params: Record<string, unknown>;
        windows: TestWindow[];
      },
    ): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into test_runs (tenant_id, batch_id, routine_id, routine_name, things_id, state, dry_run, steps, script_id, script_name,
                                script_version, script_content, params, windows, created_by)
         values ($1, $2, $3, $4, $5, 'queued', $6, $7::jsonb, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14) returning id`,
        [
          tenantId,
          r.batchId,
          r.routineId,
          r.routineName,
          r.thingsId,
          r.dryRun,
          JSON.stringify(r.steps),
          r.scriptId,
          r.scriptName,
          r.scriptVersion,
          r.scriptContent,
          JSON.stringify(r.params),
          JSON.stringify(r.windows),
          userId,
        ],
      );
      return rows[0].id;
    },

    async run(tenantId: string, id: string): Promise<RunRow | null> {
      const { rows } = await raw.query<RunRow>(`select ${RUN_COLS} from ${RUN_FROM} where r.tenant_id = $1 and r.id = $2`, [tenantId, id]);
      return rows[0] ?? null;
    },

    /** A run by id only (the runner's own reads; the id came from a scoped row). */
    async runById(id: string): Promise<RunRow | null> {
      const { rows } = await raw.query<RunRow>(`select ${RUN_COLS} from ${RUN_FROM} where r.id = $1`, [id]);
      return rows[0] ?? null;
    },

    /** Runs of the tenant; a restricted sub-user (`user`) sees those of the devices granted to it. */
    async runPage(tenantId: string, user: string | null, f: RunFilter, offset: number, limit: number) {
      const params: unknown[] = [tenantId];
      const where = ['r.tenant_id = $1'];
      if (user)
        where.push(`exists (select 1 from user_device_access a where a.user_id = $${params.push(user)} and a.things_id = r.things_id)`);
      if (f.routineId) where.push(`r.routine_id = $${params.push(f.routineId)}`);
      if (f.thingsId) where.push(`r.things_id = $${params.push(f.thingsId)}`);
      if (f.batchId) where.push(`r.batch_id = $${params.push(f.batchId)}`);
      if (f.state) where.push(`r.state = $${params.push(f.state)}`);
      if (f.verdict) where.push(`r.verdict = $${params.push(f.verdict)}`);
      if (f.from !== undefined) where.push(`r.created_at >= to_timestamp($${params.push(f.from / 1000)})`);
      if (f.to !== undefined) where.push(`r.created_at < to_timestamp($${params.push(f.to / 1000)})`);
      const w = where.join(' and ');
      const { rows } = await raw.query<RunRow>(
        `select ${RUN_COLS} from ${RUN_FROM} where ${w} order by r.created_at desc, r.id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from test_runs r where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    /**
     * Takes the oldest queued run that may start now: a dry run at once, a test when its device runs
     * no other. One statement, so two server copies never take the same run; the unique index on a
     * device's running test refuses a second start that races past the check.
     */
    async claimQueued(owner: string): Promise<RunRow | null> {
      const { rows } = await raw.query<{ id: string }>(
        `update test_runs x set state = case when x.dry_run then 'analyzing' else 'sending' end, owner = $1,
                started_at = now(), updated_at = now()
          where x.id = (select q.id from test_runs q
                         where q.state = 'queued'
                           and (q.dry_run or not exists (select 1 from test_runs a where a.things_id = q.things_id
                                                           and a.state in ${RUNNING} and not a.dry_run))
                         order by q.created_at, q.id limit 1 for update skip locked)
          returning x.id`,
        [owner],
      );
      return rows[0] ? this.runById(rows[0].id) : null;
    },

    /** Takes over the running runs whose server copy is gone (`dead`: the job-lease condition on `owner`). */
    async claimOrphans(owner: string, dead: string): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>(
        `update test_runs set owner = $1, updated_at = now() where state in ${RUNNING} and ${dead} returning id`,
        [owner],
      );
      return rows.map((r) => r.id);
    },

    /** Moves a run on (state, step, progress…), only while this copy owns it. Returns the row or null. */
    async advance(
      id: string,
      owner: string,
      set: { state?: TestRunState; step?: number; stepState?: StepState | null; windows?: TestWindow[]; progress?: number },
    ): Promise<{ cancel_requested: boolean } | null> {
      const params: unknown[] = [id, owner];
      const sets = ['updated_at = now()'];
      if (set.state) sets.push(`state = $${params.push(set.state)}`);
      if (set.step !== undefined) sets.push(`step = $${params.push(set.step)}`);
      if (set.stepState !== undefined) sets.push(`step_state = $${params.push(JSON.stringify(set.stepState))}::jsonb`);
      if (set.windows) sets.push(`windows = $${params.push(JSON.stringify(set.windows))}::jsonb`);
      if (set.progress !== undefined) sets.push(`progress = $${params.push(set.progress)}`);
      const { rows } = await raw.query<{ cancel_requested: boolean }>(
        `update test_runs set ${sets.join(', ')} where id = $1 and owner = $2 and state in ${RUNNING} returning cancel_requested`,
        params,
      );
      return rows[0] ?? null;
    },

    /**
     * Ends a running run (owner-checked: a run taken over by another copy is not ended twice), with
     * its report when it was analysed. Returns false when it was not this copy's to end.
     */
    async finish(
      id: string,
      owner: string,
      end: { state: 'analyzed' | 'failed' | 'cancelled'; verdict: TestVerdict | null; reason: string | null; reasonCode: string | null },
      report: Omit<ReportRow, 'run_id' | 'created_at'> | null,
    ): Promise<boolean> {
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ tenant_id: string }>(
          `update test_runs set state = $3, verdict = $4, reason = $5, reason_code = $6, progress = case when $3 = 'analyzed' then 100 else progress end,
                  finished_at = now(), updated_at = now(), owner = null, step_state = null
            where id = $1 and owner = $2 and state in ${RUNNING} returning tenant_id`,
          [id, owner, end.state, end.verdict, end.reason, end.reasonCode],
        );
        if (!rows[0]) return false;
        if (report)
          await tx.query(
            `insert into test_reports (run_id, tenant_id, verdict, metrics, tables, checks, charts, log, error, frames)
             values ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8, $9::jsonb, $10)`,
            [
              id,
              rows[0].tenant_id,
              report.verdict,
              JSON.stringify(report.metrics),
              JSON.stringify(report.tables),
              JSON.stringify(report.checks),
              JSON.stringify(report.charts),
              report.log,
              report.error ? JSON.stringify(report.error) : null,
              report.frames,
            ],
          );
        return true;
      });
    },

    /** Cancels a queued run at once; false when it is no longer queued. */
    async cancelQueued(tenantId: string, id: string, reason: string, code: string): Promise<boolean> {
      const { rows } = await raw.query(
        `update test_runs set state = 'cancelled', reason = $3, reason_code = $4, finished_at = now(), updated_at = now()
          where tenant_id = $1 and id = $2 and state = 'queued' returning id`,
        [tenantId, id, reason, code],
      );
      return rows.length > 0;
    },

    /** Asks the copy running it to cancel (it reads the flag at its next step or tick). */
    async requestCancel(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query(
        `update test_runs set cancel_requested = true, updated_at = now() where tenant_id = $1 and id = $2 and state in ${RUNNING} returning id`,
        [tenantId, id],
      );
      return rows.length > 0;
    },

    async deleteRun(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query(
        `delete from test_runs where tenant_id = $1 and id = $2 and state in ('analyzed', 'failed', 'cancelled') returning id`,
        [tenantId, id],
      );
      return rows.length > 0;
    },

    async report(runId: string): Promise<ReportRow | null> {
      const { rows } = await raw.query<ReportRow>(
        'select run_id, verdict, metrics, tables, checks, charts, log, error, frames, created_at from test_reports where run_id = $1',
        [runId],
      );
      return rows[0] ?? null;
    },

    /** The script a run analyses with: its content as it was when the run started. */
    async runScript(id: string): Promise<string | null> {
      const { rows } = await raw.query<{ script_content: string }>('select script_content from test_runs where id = $1', [id]);
      return rows[0]?.script_content ?? null;
    },

    /** DBC files bound to the device's channels (started or paused: analysis decodes in memory). */
    async bindings(tenantId: string, thingsId: string): Promise<BindingRow[]> {
      const { rows } = await raw.query<BindingRow>(
        `select b.channel, f.id as dbc_id, f.content, extract(epoch from f.updated_at)::float8 as version
           from channel_dbc_bindings b join dbc_files f on f.id = b.dbc_id
          where b.tenant_id = $1 and b.things_id = $2`,
        [tenantId, thingsId],
      );
      return rows.map((r) => ({ ...r, channel: Number(r.channel), version: Number(r.version) }));
    },

    /** The devices of the tenant among `ids` (the others do not exist or are another tenant's). */
    async devicesOf(tenantId: string, ids: string[]): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>('select id from things where tenant_id = $1 and id = any($2::uuid[])', [
        tenantId,
        ids,
      ]);
      return rows.map((r) => r.id);
    },
  };
}

export type TestmgmtRepository = ReturnType<typeof testmgmtRepository>;
