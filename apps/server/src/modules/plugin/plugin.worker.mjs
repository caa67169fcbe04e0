// The tasks of the plugin threads (plugin.engine.ts): a plugin's JSONata expression evaluated on one
// input with the bounds of every use (docs/decisions/0160-plugins-as-jsonata.md). It runs on a thread
// of the plugin pool, never on the server's thread: a regular expression that backtracks for hours
// ends when the pool terminates the thread at its deadline.
import jsonata from 'jsonata';

/** Compiled expressions kept per thread (a rule's plugin is compiled once, not per message). */
const CACHE = 256;
const cache = new Map();

/** An error the engine turns into the registry's code. */
function fail(code, message) {
  return Object.assign(new Error(message), { code });
}

function compiled(expression, bounds) {
  const hit = cache.get(expression);
  if (hit) {
    cache.delete(expression);
    cache.set(expression, hit);
    return hit;
  }
  const max = bounds.maxRegexInput;
  // JSONata's time limit is checked between steps: a regular expression also refuses a very long input.
  class BoundedRegExp extends RegExp {
    exec(s) {
      if (s.length > max) throw new Error(`a regular expression was given over ${max} characters`);
      return super.exec(s);
    }
  }
  let expr;
  try {
    expr = jsonata(expression, { timeout: bounds.timeout, stack: bounds.stack, sequence: bounds.sequence, RegexEngine: BoundedRegExp });
  } catch (e) {
    throw fail('plugin.bad-expression', `${e?.code ? `${e.code}: ` : ''}${e?.message ?? String(e)}`);
  }
  cache.set(expression, expr);
  if (cache.size > CACHE) cache.delete(cache.keys().next().value);
  return expr;
}

/** An input → `{kept, output?}` of the batch's expression, or an error whose `code` is plugin.timeout, plugin.eval-failed or plugin.output-too-large. */
export async function evaluate(input, bounds, { expression }) {
  const expr = compiled(expression, bounds);
  let out;
  try {
    out = await expr.evaluate(input);
  } catch (e) {
    const c = e?.code;
    if (c === 'D1011' || c === 'D1012' || c === 'D2015' || c === 'D2014' || e instanceof RangeError)
      throw fail('plugin.timeout', `Stopped: ${e?.message ?? String(e)}`);
    throw fail('plugin.eval-failed', `${c ? `${c}: ` : ''}${e?.message ?? String(e)}`);
  }
  if (out === undefined || out === false) return { kept: false };
  // Functions and sequences come back as plain JSON (a function result is not data).
  let json;
  try {
    json = JSON.stringify(out);
  } catch (e) {
    throw fail('plugin.eval-failed', String(e));
  }
  if (json === undefined) return { kept: false };
  if (json.length > bounds.maxOutput) throw fail('plugin.output-too-large', `Over ${bounds.maxOutput} characters of JSON`);
  return { kept: true, output: JSON.parse(json) };
}
