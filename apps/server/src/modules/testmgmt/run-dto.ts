import type { TestReport, TestRun } from '@loggerhead/contract';
import { epochMs } from '../../db/rows.ts';
import type { ReportRow, RunRow } from './testmgmt.repository.ts';

export function toRun(r: RunRow): TestRun {
  return {
    id: r.id,
    batch_id: r.batch_id,
    routine_id: r.routine_id,
    routine_name: r.routine_name,
    things_id: r.things_id,
    things_name: r.things_name,
    state: r.state,
    dry_run: r.dry_run,
    progress: r.progress,
    step: r.step,
    steps_total: r.steps.length,
    reason: r.reason,
    reason_code: r.reason_code,
    verdict: r.verdict,
    script_id: r.script_id,
    script_name: r.script_name,
    script_version: r.script_version,
    params: r.params ?? {},
    windows: r.windows ?? [],
    created_at: epochMs(r.created_at) ?? 0,
    started_at: epochMs(r.started_at),
    finished_at: epochMs(r.finished_at),
    created_by: r.created_by,
  };
}

export function toReport(run: RunRow, r: ReportRow): TestReport {
  return {
    run_id: run.id,
    things_id: run.things_id,
    things_name: run.things_name,
    routine_name: run.routine_name,
    dry_run: run.dry_run,
    verdict: r.verdict,
    metrics: r.metrics as TestReport['metrics'],
    tables: r.tables as TestReport['tables'],
    checks: r.checks as TestReport['checks'],
    charts: r.charts as TestReport['charts'],
    log: r.log,
    error: r.error,
    script_id: run.script_id,
    script_name: run.script_name,
    script_version: run.script_version,
    params: run.params ?? {},
    windows: run.windows ?? [],
    frames: r.frames,
    created_at: epochMs(r.created_at) ?? 0,
  };
}
