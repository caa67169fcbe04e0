import { MAX_PLUGIN_EXPRESSION, MAX_PLUGIN_OUTPUT, PLUGIN_MAX_DEPTH, PLUGIN_MAX_SEQUENCE, PLUGIN_TIMEOUT_MS } from '@loggerhead/contract';
import jsonata from 'jsonata';
import { ApiError, badRequest } from '../../lib/errors.ts';
import { DeadlineError, WorkerCrashError, WorkerPool } from '../../lib/worker-pool.ts';

/** Longest text a regular expression of a plugin is run on. */
const MAX_REGEX_INPUT = 10_000;
/** Compiled expressions kept (a rule's plugin is compiled once, not per message). */
const CACHE = 256;
/**
 * How long one evaluation may hold its thread: JSONata's own limit (`PLUGIN_TIMEOUT_MS`, checked
 * between its steps) and a margin, past which the thread is terminated — what stops one regular
 * expression that backtracks, which JSONata cannot interrupt.
 */
export const PLUGIN_DEADLINE_MS = PLUGIN_TIMEOUT_MS + 100;
/** Plugin threads: evaluations of every tenant share them, one evaluation per thread at a time. */
const PLUGIN_THREADS = 2;

export interface Evaluated {
  kept: boolean;
  output?: unknown;
}

export interface Compiled {
  expression: string;
  /** One evaluation, on a plugin thread: its result, or the ApiError of its failure; `tenantId` takes turns with other tenants' evaluations. */
  run(input: unknown, tenantId?: string): Promise<Evaluated>;
  /** Many inputs in one message to a thread (a forwarding round, an export's rows): each result or ApiError, in order. */
  runEach(inputs: unknown[], tenantId?: string): Promise<(Evaluated | ApiError)[]>;
}

interface JsonataError {
  code?: string;
  message?: string;
  position?: number;
  token?: string;
}

let pool: WorkerPool | null = null;

/**
 * The plugin threads (lib/worker-pool.ts), started at the first evaluation: the server's thread
 * never runs a tenant's expression, so no expression can hold the other tenants' requests.
 */
export function pluginPool(): WorkerPool {
  pool ??= new WorkerPool({
    module: new URL('./plugin.worker.mjs', import.meta.url),
    size: PLUGIN_THREADS,
    init: {
      timeout: PLUGIN_TIMEOUT_MS,
      stack: PLUGIN_MAX_DEPTH,
      sequence: PLUGIN_MAX_SEQUENCE,
      maxOutput: MAX_PLUGIN_OUTPUT,
      maxRegexInput: MAX_REGEX_INPUT,
    },
    // An expression that builds a huge value ends alone (plugin.eval-failed), not the server.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return pool;
}

/** A thread's answer as the registry's error: the task's own code, or plugin.timeout past the deadline. */
function evalError(e: Error): ApiError {
  if (e instanceof DeadlineError) return badRequest('plugin.timeout', `Stopped after ${e.deadlineMs} ms`);
  if (e instanceof WorkerCrashError) return badRequest('plugin.eval-failed', `The evaluation was stopped: ${e.message}`);
  const code = (e as { code?: string }).code;
  if (code === 'plugin.timeout' || code === 'plugin.eval-failed' || code === 'plugin.output-too-large' || code === 'plugin.bad-expression')
    return badRequest(code, e.message);
  return badRequest('plugin.eval-failed', e.message);
}

const cache = new Map<string, Compiled>();

/**
 * Compiles a plugin's JSONata expression (docs/decisions/0160-plugins-as-jsonata.md), or throws
 * plugin.bad-expression with JSONata's reason and position. Evaluation runs on a plugin thread, never
 * on the server's, and is bounded: `PLUGIN_TIMEOUT_MS` of running (JSONata's check between steps), the
 * thread terminated at `PLUGIN_DEADLINE_MS` (what no step check can stop, a backtracking regular
 * expression), `PLUGIN_MAX_DEPTH` of nesting, `PLUGIN_MAX_SEQUENCE` items per sequence and
 * `MAX_PLUGIN_OUTPUT` characters of result; past any bound it throws plugin.timeout or
 * plugin.output-too-large, and a failure inside is plugin.eval-failed.
 */
export function compilePlugin(expression: string): Compiled {
  const hit = cache.get(expression);
  if (hit) {
    cache.delete(expression);
    cache.set(expression, hit);
    return hit;
  }
  if (expression.length > MAX_PLUGIN_EXPRESSION)
    throw badRequest('plugin.bad-expression', `At most ${MAX_PLUGIN_EXPRESSION} characters`, 'expression');
  try {
    // Compiled here only to check it (a parse does not run the expression's regular expressions).
    jsonata(expression);
  } catch (e) {
    const j = e as JsonataError;
    const where = j.position !== undefined ? ` (at ${j.position})` : '';
    throw new ApiError(400, 'plugin.bad-expression', `${j.code ? `${j.code}: ` : ''}${j.message ?? String(e)}${where}`, {
      field: 'expression',
      details: { position: j.position ?? null, token: j.token ?? null },
    });
  }
  const opts = { deadlineMs: PLUGIN_DEADLINE_MS, common: { expression } };
  const compiled: Compiled = {
    expression,
    async run(input, tenantId) {
      const [r] = await pluginPool().runEach<Evaluated>('evaluate', [input], { ...opts, key: tenantId });
      if (!r.ok) throw evalError(r.error);
      return r.value;
    },
    async runEach(inputs, tenantId) {
      const out = await pluginPool().runEach<Evaluated>('evaluate', inputs, { ...opts, key: tenantId });
      return out.map((r) => (r.ok ? r.value : evalError(r.error)));
    },
  };
  cache.set(expression, compiled);
  if (cache.size > CACHE) cache.delete(cache.keys().next().value as string);
  return compiled;
}
