import { z } from 'zod';
import { DeviceConfigSchema, SendCanParamsSchema } from './command.ts';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Test management (spec §1 "routines, Groovy analysis scripts, analysis runs and reports", §3 test
 * routine and analysis script, §4 "sending command, collecting data, analyzing, analyzed", §5 "test
 * execution time positive integer"). Times are epoch milliseconds.
 */

/** An analysis script's text is at most this many characters. */
export const MAX_SCRIPT_CHARS = 200_000;
export const TEST_NAME_MAX = 64;
export const MAX_ROUTINE_STEPS = 50;
/** A collect or wait step lasts at most an hour. */
export const MAX_STEP_SECONDS = 3600;
/** Devices one start may name. */
export const MAX_RUN_DEVICES = 100;
/** A dry run analyses at most this much history. */
export const MAX_DRY_RUN_MS = 24 * 3600 * 1000;
/** The parameters of a routine, as JSON, are at most this many characters. */
export const MAX_PARAMS_CHARS = 20_000;

const name = z
  .string()
  .max(TEST_NAME_MAX)
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, 'name is blank');

/** Parameters a routine passes to its script (`params` in the script): a JSON object. */
export const TestParamsSchema = z
  .record(z.string().max(64), z.unknown())
  .refine((p) => JSON.stringify(p).length <= MAX_PARAMS_CHARS, `parameters are at most ${MAX_PARAMS_CHARS} characters of JSON`);

// ── Analysis scripts ────────────────────────────────────────────────────────────────────────────

export const TestScriptInputSchema = z.object({
  name,
  /** Groovy source (the script API: docs/test-management.md). */
  content: z.string().max(MAX_SCRIPT_CHARS),
  notes: z.string().max(1000).default(''),
});
export type TestScriptInput = z.input<typeof TestScriptInputSchema>;

export const TestScriptSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  notes: z.string(),
  /** Saved versions: 1 for a new script, +1 on each save that changes the content. */
  version: z.number().int(),
  /** Routines that use the script (it cannot be deleted while any does). */
  routines: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TestScriptSummary = z.infer<typeof TestScriptSummarySchema>;

export const TestScriptSchema = TestScriptSummarySchema.extend({ content: z.string() });
export type TestScript = z.infer<typeof TestScriptSchema>;

export const TestScriptPageSchema = pageOf(TestScriptSummarySchema);
export const TestScriptQuerySchema = PageQuerySchema.extend({ name: z.string().max(TEST_NAME_MAX).optional() });

export const TestScriptVersionSchema = z.object({
  script_id: z.string(),
  version: z.number().int(),
  content: z.string(),
  notes: z.string(),
  created_at: z.number().int(),
  created_by: z.string().nullable(),
});
export type TestScriptVersion = z.infer<typeof TestScriptVersionSchema>;
export const TestScriptVersionListSchema = z.array(TestScriptVersionSchema.omit({ content: true }));

export const ScriptVersionParams = z.object({ tenant_id: UuidSchema, id: UuidSchema, version: z.coerce.number().int().min(1) });

export const TestScriptValidateSchema = z.object({ content: z.string().max(MAX_SCRIPT_CHARS) });

/** A compile error: 1-based line and column of the source (0 when the compiler gave none). */
export const ScriptProblemSchema = z.object({ line: z.number().int(), column: z.number().int(), message: z.string() });
export type ScriptProblem = z.infer<typeof ScriptProblemSchema>;
export const ScriptValidationSchema = z.object({ valid: z.boolean(), errors: z.array(ScriptProblemSchema) });
export type ScriptValidation = z.infer<typeof ScriptValidationSchema>;

/** The export file of a script (`…/scripts/:id/export`), also accepted by import (as is a plain `.groovy` file). */
export const TEST_SCRIPT_FILE_FORMAT = 'loggerhead-test-script/1';
export const TestScriptFileSchema = z.object({
  format: z.literal(TEST_SCRIPT_FILE_FORMAT),
  name,
  notes: z.string().max(1000).default(''),
  content: z.string().max(MAX_SCRIPT_CHARS),
  version: z.number().int().optional(),
});

// ── The Groovy runtime ──────────────────────────────────────────────────────────────────────────

export const GROOVY_ENABLE_COMMAND = 'apt-get install -y groovy';

export const TestRuntimeSchema = z.object({
  /** `unavailable`: Java or Groovy is not installed (runs are refused; `enable_command` installs them). */
  state: z.enum(['available', 'starting', 'unavailable']),
  reason: z.string().nullable(),
  enable_command: z.string(),
  groovy_version: z.string().nullable(),
  java_version: z.string().nullable(),
  workers: z.object({ size: z.number().int(), ready: z.number().int(), busy: z.number().int() }),
  limits: z.object({
    cpu_seconds: z.number(),
    wall_seconds: z.number(),
    heap_mb: z.number().int(),
    output_kb: z.number().int(),
    max_frames: z.number().int(),
  }),
});
export type TestRuntime = z.infer<typeof TestRuntimeSchema>;

// ── Routines ────────────────────────────────────────────────────────────────────────────────────

const seconds = z.number().int('please enter positive integer').min(1, 'please enter positive integer').max(MAX_STEP_SECONDS);

/** A DBC signal to decode: `Signal` or `Message.Signal` of the DBC bound to the frame's channel. */
const signalName = z.string().min(1).max(128);

export const RoutineStepSchema = z.discriminatedUnion('type', [
  /** Send CAN frames through the device (the command feature's `common_fn.send_can`). */
  z.object({ type: z.literal('send_can'), params: SendCanParamsSchema, timeout_ms: z.number().int().min(100).max(600_000).optional() }),
  /** Any device command (operation and its parameters), as the command feature sends it. */
  z.object({
    type: z.literal('command'),
    operation_name: z.string().min(1).max(128),
    operation_params: z.record(z.string(), z.unknown()).default({}),
    timeout_ms: z.number().int().min(100).max(600_000).optional(),
  }),
  /** Write a configuration to the device (`common_fn.set_config`). */
  z.object({ type: z.literal('config'), config: DeviceConfigSchema, timeout_ms: z.number().int().min(100).max(600_000).optional() }),
  z.object({ type: z.literal('wait'), seconds }),
  /**
   * Collect the device's frames for `seconds` (spec §5 "test execution time", a positive integer):
   * those of `channels` and `ids` (all when empty), and the named DBC signals decoded from them.
   */
  z.object({
    type: z.literal('collect'),
    seconds,
    channels: z.array(z.number().int().min(0).max(255)).max(16).default([]),
    ids: z.array(z.number().int().min(0).max(0x1fffffff)).max(64).default([]),
    signals: z.array(signalName).max(50).default([]),
  }),
]);
export type RoutineStep = z.output<typeof RoutineStepSchema>;
export type RoutineStepInput = z.input<typeof RoutineStepSchema>;

export const TestRoutineInputSchema = z
  .object({
    name,
    description: z.string().max(500).default(''),
    steps: z.array(RoutineStepSchema).min(1).max(MAX_ROUTINE_STEPS),
    script_id: UuidSchema,
    params: TestParamsSchema.default({}),
  })
  .superRefine((r, ctx) => {
    if (!r.steps.some((s) => s.type === 'collect'))
      ctx.addIssue({ code: 'custom', path: ['steps'], message: 'a routine needs at least one collect step' });
  });
export type TestRoutineInput = z.input<typeof TestRoutineInputSchema>;

export const TestRoutineSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  steps: z.array(RoutineStepSchema),
  script_id: z.string(),
  script_name: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** Seconds the steps take at least (waits and collects). */
  duration_seconds: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TestRoutine = z.infer<typeof TestRoutineSchema>;
export const TestRoutinePageSchema = pageOf(TestRoutineSchema);
export const TestRoutineQuerySchema = PageQuerySchema.extend({
  name: z.string().max(TEST_NAME_MAX).optional(),
  script_id: UuidSchema.optional(),
});

// ── Runs and reports ────────────────────────────────────────────────────────────────────────────

/**
 * Spec §4 "sending command, collecting data, analyzing, analyzed", plus `queued` (waiting for the
 * device's previous test: one test at a time per device), `failed` and `cancelled` (with a reason).
 */
export const TEST_RUN_STATES = ['queued', 'sending', 'collecting', 'analyzing', 'analyzed', 'failed', 'cancelled'] as const;
export type TestRunState = (typeof TEST_RUN_STATES)[number];
export const ACTIVE_TEST_RUN_STATES: readonly TestRunState[] = ['queued', 'sending', 'collecting', 'analyzing'];
export const FINAL_TEST_RUN_STATES: readonly TestRunState[] = ['analyzed', 'failed', 'cancelled'];

/** pass: every check held; fail: a check did not; error: the script failed or broke a limit. */
export const TEST_VERDICTS = ['pass', 'fail', 'error'] as const;
export type TestVerdict = (typeof TEST_VERDICTS)[number];

export const TestRunStartSchema = z
  .object({
    routine_id: UuidSchema,
    /** The devices to run on; or `group_id`. */
    things_ids: z.array(UuidSchema).min(1).max(MAX_RUN_DEVICES).optional(),
    /** A device group instead of `things_ids`: one run per member the caller may read (at most MAX_RUN_DEVICES). */
    group_id: UuidSchema.optional(),
    /** Analyse this stored history instead of running the steps (nothing is sent to the device). */
    dry_run: z.object({ begin_time: z.number().int().min(0), end_time: z.number().int().min(0) }).optional(),
    /** Parameters for this start, over the routine's own. */
    params: TestParamsSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if (!b.things_ids === !b.group_id)
      ctx.addIssue({ code: 'custom', path: ['things_ids'], message: 'give either devices or a device group' });
    if (b.things_ids && new Set(b.things_ids).size !== b.things_ids.length)
      ctx.addIssue({ code: 'custom', path: ['things_ids'], message: 'a device is listed twice' });
    if (b.dry_run && b.dry_run.end_time <= b.dry_run.begin_time)
      ctx.addIssue({ code: 'custom', path: ['dry_run', 'end_time'], message: 'the end time must be after the begin time' });
    if (b.dry_run && b.dry_run.end_time - b.dry_run.begin_time > MAX_DRY_RUN_MS)
      ctx.addIssue({ code: 'custom', path: ['dry_run', 'end_time'], message: 'a dry run analyses at most 24 hours' });
  });
export type TestRunStart = z.input<typeof TestRunStartSchema>;

export const TestWindowSchema = z.object({ from: z.number().int(), to: z.number().int() });

export const TestRunSchema = z.object({
  id: z.string(),
  /** Runs started together (one per device) share it. */
  batch_id: z.string(),
  routine_id: z.string().nullable(),
  routine_name: z.string(),
  things_id: z.string(),
  things_name: z.string(),
  state: z.enum(TEST_RUN_STATES),
  dry_run: z.boolean(),
  /** 0-100 over the steps' durations and the analysis. */
  progress: z.number().int(),
  /** Index of the step running (or next), 0-based. */
  step: z.number().int(),
  steps_total: z.number().int(),
  /** Why it failed or was cancelled, or what went wrong in the analysis (text); `reason_code` a registry code. */
  reason: z.string().nullable(),
  reason_code: z.string().nullable(),
  verdict: z.enum(TEST_VERDICTS).nullable(),
  script_id: z.string().nullable(),
  script_name: z.string(),
  script_version: z.number().int(),
  params: z.record(z.string(), z.unknown()),
  /** Collected (or, for a dry run, analysed) time ranges. */
  windows: z.array(TestWindowSchema),
  created_at: z.number().int(),
  started_at: z.number().int().nullable(),
  finished_at: z.number().int().nullable(),
  created_by: z.string().nullable(),
});
export type TestRun = z.infer<typeof TestRunSchema>;
export const TestRunPageSchema = pageOf(TestRunSchema);
export const TestRunListSchema = z.object({ runs: z.array(TestRunSchema) });

export const TestRunQuerySchema = PageQuerySchema.extend({
  routine_id: UuidSchema.optional(),
  things_id: UuidSchema.optional(),
  batch_id: UuidSchema.optional(),
  state: z.enum(TEST_RUN_STATES).optional(),
  verdict: z.enum(TEST_VERDICTS).optional(),
  /** Started at or after / before (epoch ms). */
  begin_time: z.coerce.number().int().optional(),
  end_time: z.coerce.number().int().optional(),
});

export const ReportMetricSchema = z.object({ name: z.string(), value: z.number().nullable(), unit: z.string().nullable() });
export const ReportTableSchema = z.object({ name: z.string(), columns: z.array(z.string()), rows: z.array(z.array(z.unknown())) });
export const ReportCheckSchema = z.object({ name: z.string(), passed: z.boolean() });
/** A signal the script marked with `chart(...)`: times (epoch ms) and values, thinned to at most 2000 points. */
export const ReportChartSchema = z.object({
  signal: z.string(),
  message: z.string(),
  channel: z.number().int(),
  unit: z.string(),
  times: z.array(z.number()),
  values: z.array(z.number().nullable()),
});
export const ReportErrorSchema = z.object({
  /** cpu, wall, memory, output, script, compile, worker, data */
  kind: z.string(),
  message: z.string(),
  line: z.number().int().nullable(),
});

export const TestReportSchema = z.object({
  run_id: z.string(),
  things_id: z.string(),
  things_name: z.string(),
  routine_name: z.string(),
  dry_run: z.boolean(),
  verdict: z.enum(TEST_VERDICTS),
  metrics: z.array(ReportMetricSchema),
  tables: z.array(ReportTableSchema),
  checks: z.array(ReportCheckSchema),
  charts: z.array(ReportChartSchema),
  log: z.string(),
  error: ReportErrorSchema.nullable(),
  script_id: z.string().nullable(),
  script_name: z.string(),
  script_version: z.number().int(),
  params: z.record(z.string(), z.unknown()),
  windows: z.array(TestWindowSchema),
  /** Frames the script was given. */
  frames: z.number().int(),
  created_at: z.number().int(),
});
export type TestReport = z.infer<typeof TestReportSchema>;

/** Two runs to compare (report A, report B): distinct runs of the tenant. */
export const ReportCompareQuerySchema = z
  .object({ a: UuidSchema, b: UuidSchema })
  .refine((q) => q.a !== q.b, { path: ['b'], message: 'compare two different runs' });

/**
 * Two reports compared: each report whole, then their metrics, checks and parameters by name (a
 * name only one side has is null on the other). `diff` is B − A when both are numbers.
 */
export const ReportComparisonSchema = z.object({
  a: TestReportSchema,
  b: TestReportSchema,
  verdicts: z.object({ a: z.enum(TEST_VERDICTS), b: z.enum(TEST_VERDICTS), same: z.boolean() }),
  metrics: z.array(
    z.object({
      name: z.string(),
      unit: z.string().nullable(),
      a: z.number().nullable(),
      b: z.number().nullable(),
      diff: z.number().nullable(),
    }),
  ),
  checks: z.array(z.object({ name: z.string(), a: z.boolean().nullable(), b: z.boolean().nullable(), same: z.boolean() })),
  params: z.array(z.object({ name: z.string(), a: z.unknown(), b: z.unknown(), same: z.boolean() })),
});
export type ReportComparison = z.infer<typeof ReportComparisonSchema>;

export const ReportExportQuerySchema = z.object({ format: z.enum(['html', 'csv']).default('html') });
