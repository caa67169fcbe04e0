import type { EdgeRuleOnDevice } from '@loggerhead/contract';

interface Held {
  rule: EdgeRuleOnDevice;
  /** filter: the value last uploaded. */
  last?: number;
  /** aggregate: values seen in the current window, and when it started. */
  samples: number[];
  since: number;
}

const FUNCTIONS: Record<string, (v: number[]) => number> = {
  mean: (v) => v.reduce((a, b) => a + b, 0) / v.length,
  min: (v) => Math.min(...v),
  max: (v) => Math.max(...v),
};

/**
 * The edge-computing rules a device holds (docs/device-protocol.md, `edge.set_rule`): each works on
 * one numeric property before upload. A filter drops the property from an upload unless it moved by
 * more than its threshold since it was last uploaded; an aggregate keeps it out of uploads for its
 * window and then uploads the mean, min or max of the values it saw.
 */
export class EdgeRules {
  readonly held = new Map<string, Held>();

  /** Takes a rule (a newer version replaces the one held); the reason it cannot, or null. */
  accept(rule: EdgeRuleOnDevice, numericFields: Set<string>, now = Date.now()): string | null {
    if (!rule || typeof rule.id !== 'string' || !Number.isInteger(rule.version)) return 'rule must have an id and a version';
    if (!numericFields.has(rule.field)) return `no numeric property ${rule.field}`;
    if (rule.kind === 'filter') {
      if (!(typeof rule.threshold === 'number' && rule.threshold > 0)) return 'a filter needs a positive threshold';
    } else if (rule.kind === 'aggregate') {
      if (!(rule.function && Object.hasOwn(FUNCTIONS, rule.function))) return `unknown function ${rule.function}`;
      if (!(Number.isInteger(rule.window_s) && (rule.window_s as number) > 0)) return 'an aggregate needs a window';
    } else return `unknown rule kind ${String((rule as { kind?: unknown }).kind)}`;
    const old = this.held.get(rule.id);
    if (old && old.rule.version > rule.version) return `version ${rule.version} is older than the one held (${old.rule.version})`;
    this.held.set(rule.id, { rule, samples: [], since: now });
    return null;
  }

  /** The properties to upload (block → identifier → value) once the rules have had their say. */
  apply(state: Record<string, Record<string, unknown>>, now = Date.now()): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [block, values] of Object.entries(state)) out[block] = { ...values };
    for (const h of this.held.values()) {
      const dot = h.rule.field.indexOf('.');
      const [block, id] = [h.rule.field.slice(0, dot), h.rule.field.slice(dot + 1)];
      const v = out[block]?.[id];
      if (typeof v !== 'number') continue;
      if (h.rule.kind === 'filter') {
        if (h.last !== undefined && Math.abs(v - h.last) <= (h.rule.threshold as number)) delete out[block][id];
        else h.last = v;
      } else {
        h.samples.push(v);
        if (now - h.since < (h.rule.window_s as number) * 1000) delete out[block][id];
        else {
          out[block][id] = Math.round(FUNCTIONS[h.rule.function as string](h.samples) * 1e6) / 1e6;
          h.samples = [];
          h.since = now;
        }
      }
    }
    return out;
  }
}
