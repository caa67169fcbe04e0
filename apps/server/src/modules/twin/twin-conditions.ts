import type { TwinCondition } from '@loggerhead/contract';
import type { Reported } from './twin.repository.ts';

/** A rule's value (text in the spec's condition) read as its value_type. */
function typed(c: TwinCondition): unknown {
  switch (c.value_type) {
    case 1:
      return Number(c.value);
    case 7:
      return c.value === 'true' || c.value === '1';
    case 2:
      return c.value;
    default:
      try {
        return JSON.parse(c.value);
      } catch {
        return undefined;
      }
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function holds(c: TwinCondition, state: Reported): boolean {
  const entry = state[c.field];
  if (!entry) return false;
  const v = entry.value;
  const want = typed(c);
  switch (c.op) {
    case '=':
      return same(v, want);
    case '!=':
      return !same(v, want);
    case 'contains':
      if (typeof v === 'string') return v.includes(String(want ?? c.value));
      if (Array.isArray(v)) return v.some((x) => same(x, want));
      return false;
    default: {
      if (typeof v !== 'number' || typeof want !== 'number' || Number.isNaN(want)) return false;
      if (c.op === '>') return v > want;
      if (c.op === '>=') return v >= want;
      if (c.op === '<') return v < want;
      return v <= want;
    }
  }
}

/**
 * Whether the conditions hold on a reported state, read left to right: each condition's `join`
 * (and / or) ties it to the result so far; the first one's join is ignored.
 */
export function conditionsHold(conditions: readonly TwinCondition[], state: Reported): boolean {
  let result = false;
  conditions.forEach((c, i) => {
    const h = holds(c, state);
    if (i === 0) result = h;
    else result = c.join === 'or' ? result || h : result && h;
  });
  return result;
}
