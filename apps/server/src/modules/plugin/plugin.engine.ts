import { MAX_PLUGIN_EXPRESSION, MAX_PLUGIN_OUTPUT, PLUGIN_MAX_DEPTH, PLUGIN_MAX_SEQUENCE, PLUGIN_TIMEOUT_MS } from '@loggerhead/contract';
import jsonata from 'jsonata';
import { ApiError, badRequest } from '../../lib/errors.ts';

/** Longest text a regular expression of a plugin is run on (a backtracking pattern cannot be stopped mid-match). */
const MAX_REGEX_INPUT = 10_000;
/** Compiled expressions kept (a rule's plugin is compiled once, not per message). */
const CACHE = 256;

export interface Compiled {
  expression: string;
  run(input: unknown): Promise<{ kept: boolean; output?: unknown }>;
}

interface JsonataError {
  code?: string;
  message?: string;
  position?: number;
  token?: string;
}

/**
 * A RegExp whose matching refuses very long inputs: JSONata's time limit is checked between steps,
 * so one catastrophic match on a huge string could otherwise hold the server.
 */
class BoundedRegExp extends RegExp {
  override exec(s: string): RegExpExecArray | null {
    if (s.length > MAX_REGEX_INPUT) throw new Error(`a regular expression was given over ${MAX_REGEX_INPUT} characters`);
    return super.exec(s);
  }
}

const cache = new Map<string, Compiled>();

/** Turns what JSONata threw while evaluating into the registry's codes. */
function evalError(e: unknown): ApiError {
  const j = e as JsonataError;
  if (j?.code === 'D1011' || j?.code === 'D1012' || j?.code === 'D2015' || j?.code === 'D2014' || e instanceof RangeError)
    return badRequest('plugin.timeout', `Stopped: ${j?.message ?? String(e)}`);
  return badRequest('plugin.eval-failed', `${j?.code ? `${j.code}: ` : ''}${j?.message ?? String(e)}`);
}

/**
 * Compiles a plugin's JSONata expression (docs/decisions/0160-plugins-as-jsonata.md), or throws
 * plugin.bad-expression with JSONata's reason and position. Evaluation is bounded: `PLUGIN_TIMEOUT_MS`
 * of running, `PLUGIN_MAX_DEPTH` of nesting, `PLUGIN_MAX_SEQUENCE` items per sequence and
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
  let expr: jsonata.Expression;
  try {
    expr = jsonata(expression, {
      timeout: PLUGIN_TIMEOUT_MS,
      stack: PLUGIN_MAX_DEPTH,
      sequence: PLUGIN_MAX_SEQUENCE,
      RegexEngine: BoundedRegExp as RegExpConstructor,
    });
  } catch (e) {
    const j = e as JsonataError;
    const where = j.position !== undefined ? ` (at ${j.position})` : '';
    throw new ApiError(400, 'plugin.bad-expression', `${j.code ? `${j.code}: ` : ''}${j.message ?? String(e)}${where}`, {
      field: 'expression',
      details: { position: j.position ?? null, token: j.token ?? null },
    });
  }
  const compiled: Compiled = {
    expression,
    async run(input) {
      let out: unknown;
      try {
        out = await expr.evaluate(input);
      } catch (e) {
        throw evalError(e);
      }
      if (out === undefined || out === false) return { kept: false };
      // Functions and sequences come back as plain JSON (a function result is not data).
      let json: string | undefined;
      try {
        json = JSON.stringify(out);
      } catch (e) {
        throw badRequest('plugin.eval-failed', String(e));
      }
      if (json === undefined) return { kept: false };
      if (json.length > MAX_PLUGIN_OUTPUT) throw badRequest('plugin.output-too-large', `Over ${MAX_PLUGIN_OUTPUT} characters of JSON`);
      return { kept: true, output: JSON.parse(json) };
    },
  };
  cache.set(expression, compiled);
  if (cache.size > CACHE) cache.delete(cache.keys().next().value as string);
  return compiled;
}
