import fc from 'fast-check';
import { z } from 'zod';

/**
 * Request inputs generated from a route's own zod schemas: mostly well-formed values (so a request
 * gets past validation and reaches the services and the database), with malformed values mixed in
 * at any place — wrong types, NUL bytes, huge strings and numbers, non-UUIDs, deep or odd JSON,
 * arrays where objects belong, lone surrogates, negative sizes.
 */

type Json = Record<string, unknown>;

/** The JSON Schema of a request schema, as its client sees it (input side). */
export function jsonSchemaOf(schema: unknown): Json | null {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return null;
  return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any', reused: 'inline' }) as Json;
}

const NUL = '\u0000';

/** Values no well-behaved client sends. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    NUL,
    `a${NUL}b`,
    '%00',
    '',
    ' ',
    'not-a-uuid',
    '00000000-0000-0000-0000-00000000000g',
    '\uD800',
    '\uDFFF\uD800',
    '𝕏😀中文',
    '../../etc/passwd',
    "'; drop table users; --",
    '1e400',
    '-1',
    '0',
    'NaN',
    'Infinity',
    '9223372036854775808',
    '2024-02-30T25:61:61Z',
    '99999-12-31',
    -1,
    0,
    -2147483649,
    2147483648,
    2 ** 63,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    1.5,
    true,
    false,
    null,
    [],
    {},
    [null],
    JSON.parse('{"__proto__":{"x":1}}'),
    JSON.parse('{"constructor":{"prototype":{"x":1}}}'),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => `${s}${NUL}${s}`),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.double(),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => Number(n)),
  fc.integer({ min: 1, max: 300 }).map((depth) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
    return v;
  }),
  fc.array(fc.constantFrom(1, 'a', null, NUL), { maxLength: 2000 }),
  fc.jsonValue({ maxDepth: 3 }),
);

interface Ctx {
  root: Json;
  /** Weight of a malformed value at a leaf, against 10 for a well-formed one. */
  bad: number;
  depth: number;
}

function withNasty(ctx: Ctx, ok: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return ctx.bad > 0 ? fc.oneof({ weight: 10, arbitrary: ok }, { weight: ctx.bad, arbitrary: nasty }) : ok;
}

function resolve(ctx: Ctx, s: Json): Json {
  const ref = s.$ref;
  if (typeof ref !== 'string') return s;
  if (ref === '#') return ctx.root;
  const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = (ctx.root.$defs ?? ctx.root.definitions) as Record<string, Json> | undefined;
  return (m && defs?.[decodeURIComponent(m[1])]) || {};
}

function stringOf(s: Json): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = Math.max(min, Math.min(typeof s.maxLength === 'number' ? s.maxLength : 24, 64));
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc.date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl();
  }
  if (typeof s.pattern === 'string') {
    try {
      // (no length filter: a pattern and a length fast-check cannot meet together would never end)
      return fc.stringMatching(new RegExp(s.pattern), { size: 'xsmall' });
    } catch {
      // a pattern fast-check cannot read: plain strings
    }
  }
  return fc.string({ minLength: min, maxLength: max });
}

function numberOf(s: Json, integer: boolean): fc.Arbitrary<number> {
  const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : -1e6;
  const hi = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : 1e6;
  const min = Math.max(lo, -1e9);
  const max = Math.max(min, Math.min(hi, 1e9));
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function arb(ctx: Ctx, raw: Json): fc.Arbitrary<unknown> {
  const s = resolve(ctx, raw);
  if (ctx.depth > 6) return withNasty(ctx, fc.constant(null));
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1 };
  if ('const' in s) return withNasty(ctx, fc.constant(s.const));
  if (Array.isArray(s.enum) && s.enum.length) return withNasty(ctx, fc.constantFrom(...s.enum));
  const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (Array.isArray(alts) && alts.length) return fc.oneof(...alts.map((a) => arb(deeper, a)));
  if (Array.isArray(s.allOf) && s.allOf.length) return arb(deeper, Object.assign({}, ...(s.allOf as Json[])));
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => arb(deeper, { ...s, type })));
  switch (types[0]) {
    case 'string':
      return withNasty(ctx, stringOf(s));
    case 'integer':
      return withNasty(ctx, numberOf(s, true));
    case 'number':
      return withNasty(ctx, numberOf(s, false));
    case 'boolean':
      return withNasty(ctx, fc.boolean());
    case 'null':
      return withNasty(ctx, fc.constant(null));
    case 'array': {
      if (Array.isArray(s.prefixItems)) return withNasty(ctx, fc.tuple(...(s.prefixItems as Json[]).map((i) => arb(deeper, i))));
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, 4));
      return withNasty(ctx, fc.array(arb(deeper, (s.items as Json) ?? {}), { minLength, maxLength }));
    }
    case 'object':
      return withNasty(ctx, objectOf(deeper, s));
  }
  if (s.properties) return withNasty(ctx, objectOf(deeper, s));
  // Anything goes (z.unknown, z.any, transforms): JSON of any shape.
  return withNasty(ctx, fc.jsonValue({ maxDepth: 2 }));
}

function objectOf(ctx: Ctx, s: Json): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = arb(ctx, v);
  const requiredKeys = Object.keys(props).filter((k) => required.has(k));
  let base: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys });
  const extra = s.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(props).length === 0) {
    base = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), arb(ctx, extra as Json), { maxKeys: 3 });
  }
  if (ctx.bad === 0) return base;
  // Now and then a required key missing or an unknown one added.
  return fc.tuple(base, fc.option(fc.constantFrom(...requiredKeys, '__proto__', `x${NUL}`), { freq: 4 }), nasty).map(([o, key, v]) => {
    if (key === null) return o;
    const copy = { ...o };
    if (required.has(key)) delete copy[key];
    else copy[key] = v;
    return copy;
  });
}

/** Mostly valid values of a JSON Schema, with malformed ones at any place (`bad` = 0: valid only). */
export function inputOf(schema: Json | null, bad = 2): fc.Arbitrary<unknown> {
  if (!schema) return bad ? fc.oneof(fc.constant(undefined), nasty) : fc.constant(undefined);
  const ok = arb({ root: schema, bad, depth: 0 }, schema);
  return bad ? fc.oneof({ weight: 6, arbitrary: ok }, { weight: 1, arbitrary: nasty }) : ok;
}

/** A query string for a generated value: arrays as repeated keys, objects as JSON. */
export function toQuery(value: unknown): string {
  if (value === undefined) return '';
  const q = new URLSearchParams();
  const add = (k: string, v: unknown) => {
    if (v === undefined) return;
    if (Array.isArray(v)) for (const x of v) add(k, x);
    else q.append(k, v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v ?? ''));
  };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) add(k, v);
  } else add('q', value);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A path segment for a generated value (percent-encoded UTF-8 bytes, lone surrogates included). */
export function toSegment(value: unknown): string {
  const s = value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
  let out = '';
  for (const b of Buffer.from(s === '' ? ' ' : s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
