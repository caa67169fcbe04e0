import { type CommandIssue, ErrorCodes, Operations, type RoutineStep, type TestRun, type TestVerdict } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { ApiError } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import type { RecoveryPass } from '../../lib/job-leases.ts';
import type { CommandService } from '../command/command.service.ts';
import { type CollectPlan, chartsOf, collectInput } from './analysis-input.ts';
import { toRun } from './run-dto.ts';
import type { GroovyRuntime, ScriptFailureKind } from './runtime/groovy-runtime.ts';
import { type ReportRow, type RunRow, type StepState, type TestWindow, testmgmtRepository } from './testmgmt.repository.ts';

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** A test run changed state or progress (pushed to the browsers watching the tenant's runs). */
    'testmgmt.run': { tenantId: string; thingsId: string; run: TestRun };
  }
}

export interface RunnerDeps {
  raw: RawSql;
  commands: CommandService;
  runtime: GroovyRuntime;
  events: EventBus;
  /** This server copy (ctx.jobs.owner): a running run names it. */
  owner: string;
  maxFrames: number;
  /** After the last collect window, wait this long for frames the logger still sends (ms). */
  settleMs: number;
  log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };
}

/** How a run ends before its analysis. */
class RunEnd extends Error {
  constructor(
    readonly state: 'failed' | 'cancelled',
    readonly code: keyof typeof ErrorCodes,
    readonly reason: string = ErrorCodes[code].message,
  ) {
    super(reason);
  }
}

/** The run is no longer this copy's (taken over, or the server is stopping): stop without ending it. */
class Lost extends Error {}

const cancelled = () => new RunEnd('cancelled', 'test.cancelled');

/** Reason code of a script that did not finish, by what stopped it. */
const FAILURE_CODES: Record<ScriptFailureKind, keyof typeof ErrorCodes> = {
  cpu: 'test.limit-cpu',
  wall: 'test.limit-wall',
  memory: 'test.limit-memory',
  output: 'test.limit-output',
  stack: 'test.script-error',
  script: 'test.script-error',
  forbidden: 'test.script-rejected',
  compile: 'test.script-rejected',
  worker: 'test.worker-lost',
  cancelled: 'test.cancelled',
};

/** Weight of each step in the progress: its seconds (waits, collects), 1 for a send. */
const weight = (s: RoutineStep) => (s.type === 'wait' || s.type === 'collect' ? s.seconds : 1);

function stepLabel(s: RoutineStep): string {
  if (s.type === 'send_can') return 'send CAN frames';
  if (s.type === 'config') return 'write the configuration';
  if (s.type === 'command') return `command ${s.operation_name}`;
  return s.type;
}

function commandOf(s: RoutineStep): CommandIssue | null {
  const timeout = 'timeout_ms' in s ? s.timeout_ms : undefined;
  // A test does not wait a day for an offline device: the command expires with the step.
  const expiry = { expires_in_ms: Math.max(10_000, (timeout ?? 30_000) * 2) };
  if (s.type === 'send_can')
    return { operation_name: Operations.sendCan, operation_params: s.params as Record<string, unknown>, timeout_ms: timeout, ...expiry };
  if (s.type === 'config')
    return { operation_name: Operations.setConfig, operation_params: { config: s.config }, timeout_ms: timeout, ...expiry };
  if (s.type === 'command')
    return { operation_name: s.operation_name, operation_params: s.operation_params, timeout_ms: timeout, ...expiry };
  return null;
}

/**
 * Runs test runs: takes queued ones (one test at a time per device), plays their steps through the
 * command feature, waits out the collect windows, then analyses what was stored with the script in
 * a Groovy worker and writes the report. Every step's state is in the run's row, so a run whose
 * server stopped is resumed by the next start (or by another copy).
 */
export function testRunner(deps: RunnerDeps) {
  const { raw, commands, runtime, events, owner, log } = deps;
  const repo = testmgmtRepository(raw);
  const active = new Map<string, AbortController>();
  let kicking: Promise<void> | null = null;
  let again = false;
  let closing = false;
  let timer: NodeJS.Timeout | null = null;

  function emit(row: RunRow) {
    events.emit('testmgmt.run', { tenantId: row.tenant_id, thingsId: row.things_id, run: toRun(row) });
  }

  async function reload(id: string): Promise<RunRow | null> {
    const row = await repo.runById(id);
    if (row) emit(row);
    return row;
  }

  /** Moves the run on; throws when it is no longer ours, or a cancel was asked. */
  async function advance(row: RunRow, set: Parameters<typeof repo.advance>[2], signal: AbortSignal) {
    if (signal.aborted) throw closing ? new Lost() : cancelled();
    const r = await repo.advance(row.id, owner, set);
    if (!r) throw new Lost();
    if (r.cancel_requested) throw cancelled();
    Object.assign(row, {
      ...(set.state ? { state: set.state } : {}),
      ...(set.step !== undefined ? { step: set.step } : {}),
      ...(set.stepState !== undefined ? { step_state: set.stepState } : {}),
      ...(set.windows ? { windows: set.windows } : {}),
      ...(set.progress !== undefined ? { progress: set.progress } : {}),
    });
    emit(row);
  }

  function progressAt(row: RunRow, i: number, fraction: number): number {
    const total = row.steps.reduce((n, s) => n + weight(s), 0) + 1;
    const done = row.steps.slice(0, i).reduce((n, s) => n + weight(s), 0) + (row.steps[i] ? weight(row.steps[i]) * fraction : 0);
    return Math.min(99, Math.floor((100 * done) / total));
  }

  /** Sleeps until `until` (epoch ms) in ticks of a second, moving the progress on and hearing cancels. */
  async function sleepUntil(row: RunRow, i: number, from: number, until: number, signal: AbortSignal) {
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, Math.min(1000, left));
        function done() {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      });
      const fraction = until > from ? Math.min(1, (Date.now() - from) / (until - from)) : 1;
      await advance(row, { progress: progressAt(row, i, fraction) }, signal);
    }
  }

  /** Waits for a command's end, hearing cancels every second. */
  async function commandEnd(row: RunRow, correlationId: string, signal: AbortSignal) {
    const final = commands.waitFinalById(row.things_id, correlationId);
    for (;;) {
      const r = await Promise.race([final, new Promise<'tick'>((resolve) => setTimeout(() => resolve('tick'), 1000).unref())]);
      if (r !== 'tick') return r;
      await advance(row, {}, signal);
    }
  }

  async function runStep(row: RunRow, i: number, resumed: StepState | null, signal: AbortSignal) {
    const s = row.steps[i];
    const issue = commandOf(s);
    if (issue) {
      let correlationId = resumed?.correlation_id;
      if (!correlationId) {
        await advance(row, { state: 'sending', step: i, stepState: null, progress: progressAt(row, i, 0) }, signal);
        try {
          const target = await commands.target(row.tenant_id, row.things_id);
          correlationId = (await commands.issueRaw(target, issue, row.created_by)).correlation_id;
        } catch (e) {
          const b = e instanceof ApiError ? [e.body].flat()[0] : null;
          throw new RunEnd('failed', 'test.step-failed', `Step ${i + 1} (${stepLabel(s)}): ${b?.message ?? (e as Error).message}`);
        }
        await advance(row, { stepState: { correlation_id: correlationId } }, signal);
      }
      const done = await commandEnd(row, correlationId, signal);
      if (!done) throw new RunEnd('failed', 'test.step-failed', `Step ${i + 1} (${stepLabel(s)}): the command is gone`);
      if (done.state !== 'answered') {
        const what =
          done.state === 'failed' ? `the device refused it${done.message ? `: ${done.message}` : ''}` : `the command ended ${done.state}`;
        throw new RunEnd('failed', 'test.step-failed', `Step ${i + 1} (${stepLabel(s)}): ${what}`);
      }
    } else if (s.type === 'wait' || s.type === 'collect') {
      let st = resumed?.until ? resumed : null;
      if (!st) {
        const from = Date.now();
        st = { from, until: from + s.seconds * 1000 };
        await advance(row, { ...(s.type === 'collect' ? { state: 'collecting' as const } : {}), step: i, stepState: st }, signal);
      }
      await sleepUntil(row, i, st.from ?? Date.now(), st.until ?? Date.now(), signal);
      if (s.type === 'collect') {
        const windows: TestWindow[] = [...(row.windows ?? []), { from: st.from ?? 0, to: st.until ?? 0 }];
        await advance(row, { step: i + 1, stepState: null, windows, progress: progressAt(row, i + 1, 0) }, signal);
        return;
      }
    }
    await advance(row, { step: i + 1, stepState: null, progress: progressAt(row, i + 1, 0) }, signal);
  }

  /** What to analyse: the collect steps' windows, or a dry run's range with every collect step's filters. */
  function plansOf(row: RunRow): CollectPlan[] {
    const collects = row.steps.filter((s) => s.type === 'collect');
    if (row.dry_run) {
      const union = <T>(f: (s: (typeof collects)[number]) => T[]) =>
        collects.some((c) => f(c).length === 0) ? [] : [...new Set(collects.flatMap(f))];
      return row.windows.map((window) => ({
        window,
        channels: union((c) => c.channels),
        ids: union((c) => c.ids),
        signals: union((c) => c.signals),
      }));
    }
    return collects
      .map((c, k) => ({ window: row.windows[k], channels: c.channels, ids: c.ids, signals: c.signals }))
      .filter((p) => p.window);
  }

  async function analyze(row: RunRow, signal: AbortSignal) {
    await advance(
      row,
      { state: 'analyzing', step: row.steps.length, stepState: null, progress: progressAt(row, row.steps.length, 0) },
      signal,
    );
    const plans = plansOf(row);
    if (!row.dry_run && plans.length) {
      const last = plans[plans.length - 1].window.to;
      await sleepUntil(row, row.steps.length, last, last + deps.settleMs, signal);
    }
    const source = (await repo.runScript(row.id)) ?? '';
    const data = await collectInput(
      raw,
      { tenantId: row.tenant_id, thingsId: row.things_id, params: row.params ?? {} },
      plans,
      deps.maxFrames,
    );
    if (!data.ok) {
      const message = `more than ${deps.maxFrames} frames to analyse`;
      return end(
        row,
        { state: 'analyzed', verdict: 'error', reason: message, reasonCode: 'test.too-much-data' },
        {
          verdict: 'error',
          metrics: [],
          tables: [],
          checks: [],
          charts: [],
          log: '',
          error: { kind: 'data', message, line: null },
          frames: data.frames,
        },
      );
    }
    let outcome: Awaited<ReturnType<GroovyRuntime['run']>>;
    try {
      outcome = await runtime.run(source, data.input, signal);
    } catch (e) {
      const u = e as { unavailable?: boolean; code?: 'test.runtime-unavailable' | 'test.isolation-unavailable' };
      if (u.unavailable) throw new RunEnd('failed', u.code ?? 'test.runtime-unavailable');
      throw e;
    }
    if (closing) throw new Lost();
    const notes = data.notes.map((n) => `note: ${n}\n`).join('');
    if (outcome.ok) {
      const verdict: TestVerdict = outcome.report.checks.some((c) => !c.passed) ? 'fail' : 'pass';
      return end(
        row,
        { state: 'analyzed', verdict, reason: null, reasonCode: null },
        {
          verdict,
          metrics: outcome.report.metrics,
          tables: outcome.report.tables,
          checks: outcome.report.checks,
          charts: chartsOf(outcome.report.charts, data.series),
          log: notes + outcome.report.log,
          error: null,
          frames: data.frames,
        },
      );
    }
    const e = outcome.error;
    if (e.kind === 'cancelled') throw cancelled();
    const reason = `${e.message}${e.line ? ` (line ${e.line})` : ''}`;
    const partial = outcome.report;
    return end(
      row,
      { state: 'analyzed', verdict: 'error', reason, reasonCode: FAILURE_CODES[e.kind] ?? 'test.script-error' },
      {
        verdict: 'error',
        metrics: partial?.metrics ?? [],
        tables: partial?.tables ?? [],
        checks: partial?.checks ?? [],
        charts: partial ? chartsOf(partial.charts, data.series) : [],
        log: notes + (partial?.log ?? ''),
        error: { kind: e.kind, message: e.message, line: e.line },
        frames: data.frames,
      },
    );
  }

  async function end(
    row: RunRow,
    how: { state: 'analyzed' | 'failed' | 'cancelled'; verdict: TestVerdict | null; reason: string | null; reasonCode: string | null },
    report: Omit<ReportRow, 'run_id' | 'created_at'> | null,
  ) {
    if (await repo.finish(row.id, owner, how, report)) await reload(row.id);
  }

  async function execute(row: RunRow) {
    const ctl = new AbortController();
    active.set(row.id, ctl);
    try {
      if (!row.dry_run)
        for (let i = row.step; i < row.steps.length; i++) await runStep(row, i, i === row.step ? row.step_state : null, ctl.signal);
      await analyze(row, ctl.signal);
    } catch (e) {
      if (e instanceof Lost || closing) return;
      if (e instanceof RunEnd)
        await end(row, { state: e.state, verdict: null, reason: e.reason, reasonCode: e.code }, null).catch(() => {});
      else {
        log.error({ err: e, run: row.id }, 'test run failed');
        await end(row, { state: 'failed', verdict: null, reason: (e as Error).message, reasonCode: 'http.500' }, null).catch(() => {});
      }
    } finally {
      active.delete(row.id);
      if (!closing) void kick();
    }
  }

  /** Starts every queued run that may start now. */
  function kick(): Promise<void> {
    if (closing) return Promise.resolve();
    if (kicking) {
      again = true;
      return kicking;
    }
    kicking = (async () => {
      do {
        again = false;
        for (;;) {
          let row: RunRow | null;
          try {
            row = await repo.claimQueued(owner);
          } catch (e) {
            // Another copy started a test of the same device at the same moment: the next kick retries.
            if ((e as { code?: string }).code !== '23505') log.warn({ err: e }, 'test runs not started');
            break;
          }
          if (!row) break;
          emit(row);
          void execute(row);
        }
      } while (again && !closing);
    })().finally(() => {
      kicking = null;
    });
    return kicking;
  }

  return {
    kick,

    /** Cancels a run this copy is running; false when it runs elsewhere (or not at all). */
    cancelLocal(id: string): boolean {
      const ctl = active.get(id);
      if (!ctl) return false;
      ctl.abort();
      return true;
    },

    /**
     * Job-lease recovery: resumes the runs whose server copy stopped, where each was. The first pass
     * (at start, with the lease taken and the broker up) also starts the queue.
     */
    async recover(pass: RecoveryPass): Promise<number> {
      if (!timer && !closing) {
        timer = setInterval(() => void kick(), 2000);
        timer.unref();
      }
      const ids = await repo.claimOrphans(owner, pass.dead());
      for (const id of ids) {
        const row = await reload(id);
        if (row) void execute(row);
      }
      void kick();
      return ids.length;
    },

    /** The server stops: runs are left as they are (the next start resumes them). */
    async close() {
      closing = true;
      if (timer) clearInterval(timer);
      for (const ctl of active.values()) ctl.abort();
      await kicking?.catch(() => {});
    },

    /** Runs this copy is running (tests). */
    running(): string[] {
      return [...active.keys()];
    },
  };
}

export type TestRunner = ReturnType<typeof testRunner>;
