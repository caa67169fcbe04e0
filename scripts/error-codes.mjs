#!/usr/bin/env node
/**
 * Figures of the error-code registry (spec §8), read from the source text:
 * - separate code maps: exported `…Codes` / `…Messages` objects of the contract and the server
 *   that give codes their text;
 * - code literals at throw sites (the throw helpers, `code: '…'` bodies) that the registry lacks;
 * - throw sites that pass, word for word, the registry's own text for their code (it belongs in one place).
 * The registry is `ErrorCodes` of packages/contract/src/errors.ts, or, where that does not exist,
 * the maps `defaultMessage` reads (`AuthCodes`, `KnownCodes`, `HttpMessages`).
 *
 *   node scripts/error-codes.mjs          figures
 *   node scripts/error-codes.mjs --list   figures and every literal missing from the registry
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The top-level entries `'code': { message: '…' }` of the registry, code → text (after only). */
function messagesOf(text) {
  const out = new Map();
  for (const m of text.matchAll(/^ {2}(?:'([^']+)'|([A-Za-z_$][\w$]*)): \{ message: '([^']*)'/gm)) out.set(m[1] ?? m[2], m[3]);
  return out;
}

/** The top-level keys of `export const NAME … = { … }` (keys at two spaces of indent). */
function keysOf(text, name) {
  const start = new RegExp(`export const ${name}\\b[^=]*=\\s*\\{`).exec(text);
  if (!start) return [];
  const body = text.slice(start.index + start[0].length);
  const end = body.search(/^\}/m);
  const keys = [];
  for (const m of body.slice(0, end).matchAll(/^ {2}(?:'([^']+)'|([A-Za-z_$][\w$]*)|(\d+))\s*:/gm)) keys.push(m[1] ?? m[2] ?? m[3]);
  return keys;
}

const errorsTs = fs.readFileSync(path.join(root, 'packages/contract/src/errors.ts'), 'utf8');
const registry = new Set(
  /export const ErrorCodes\b/.test(errorsTs)
    ? keysOf(errorsTs, 'ErrorCodes')
    : [...keysOf(errorsTs, 'AuthCodes'), ...keysOf(errorsTs, 'KnownCodes'), ...keysOf(errorsTs, 'HttpMessages').map((s) => `http.${s}`)],
);

const mapFiles = [...sources(path.join(root, 'packages/contract/src')), ...sources(path.join(root, 'apps/server/src'))];
const maps = [];
for (const f of mapFiles) {
  for (const m of fs.readFileSync(f, 'utf8').matchAll(/^export const (\w+(?:Codes|Messages))\b[^=]*=\s*\{/gm)) {
    maps.push(`${path.relative(root, f)}: ${m[1]}`);
  }
}

/** Code literals handed to the throw helpers or written as `code: '…'` in an error body. */
export const THROW_SITE = [
  /new ApiError\(\s*\d{3}\s*,\s*'([^']+)'/g,
  /\b(?:badRequest|conflict|unauthorized)\(\s*'([^']+)'/g,
  /\b(?:alertError|fenceError|err|fail)\(\s*\d{3}\s*,\s*'([^']+)'/g,
  /\b(?:fail|taken)\(\s*'([^']+)'/g,
  /\bfail\(\s*[A-Z_]+\s*,\s*'([^']+)'/g,
  /\bfieldError\(\s*'([^']+)'/g,
  /\[code, message\] = \['([^']+)'/g,
  /\bcode:\s*'([^']+)'/g,
];
const sites = [];
for (const f of sources(path.join(root, 'apps/server/src'))) {
  const text = fs.readFileSync(f, 'utf8');
  for (const re of THROW_SITE) {
    for (const m of text.matchAll(re)) {
      const line = text.slice(0, m.index).split('\n').length;
      sites.push({ code: m[1], at: `${path.relative(root, f)}:${line}` });
    }
  }
}
const messages = messagesOf(errorsTs);
const REPEATS =
  /(?:new ApiError\(\s*\d{3}\s*,\s*|badRequest\(\s*|conflict\(\s*|unauthorized\(\s*|fieldError\(\s*)'([^']+)'\s*,\s*(?:[\w.]+\s*,\s*)?'([^']*)'/g;
const repeats = [];
for (const f of sources(path.join(root, 'apps/server/src'))) {
  const text = fs.readFileSync(f, 'utf8');
  for (const m of text.matchAll(REPEATS)) {
    if (messages.get(m[1]) === m[2]) repeats.push(`${m[1]} ${path.relative(root, f)}:${text.slice(0, m.index).split('\n').length}`);
  }
}
const missing = sites.filter((s) => !registry.has(s.code));
const distinct = new Set(missing.map((s) => s.code));

console.log(`separate code maps: ${maps.length}`);
console.log(`codes in the registry: ${registry.size}`);
console.log(`code literals at throw sites: ${sites.length} (${new Set(sites.map((s) => s.code)).size} distinct)`);
console.log(`  not in the registry: ${missing.length} (${distinct.size} distinct)`);
console.log(`throw sites repeating the registry's text for their code: ${repeats.length}`);
if (process.argv.includes('--list')) {
  for (const r of repeats) console.log(`repeats ${r}`);
  for (const m of maps) console.log(`map ${m}`);
  for (const s of missing) console.log(`missing ${s.code} ${s.at}`);
}
