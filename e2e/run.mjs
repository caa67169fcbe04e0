#!/usr/bin/env node
/**
 * Runs the browser tests in lanes: two Playwright runs side by side (E2E_LANES, default 2), each with
 * its own shared server (global setup) and its own share of the spec files. A lane runs its files one
 * after the other, as a single run did, so tests within a lane see the same shared server as before
 * and no test meets another lane's data. The tests spend most of their time waiting for the browser
 * and the server (a run used about 0.4 of a core), so two lanes take about half the time on the two
 * cores a run has.
 *
 * Files are dealt to lanes longest first by the seconds in `support/durations.json` (measured; a file
 * not listed counts as DEFAULT_SECONDS). With arguments (a file filter, `--grep`, …) it runs one
 * Playwright with them, as `playwright test` would.
 *
 *   node run.mjs                 every spec, in lanes
 *   node run.mjs session         only tests/session.spec.ts, one run
 *   E2E_LANES=1 node run.mjs     every spec in one run
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const DIR = import.meta.dirname;
const DEFAULT_SECONDS = 15;
const args = process.argv.slice(2);
const lanes = Math.max(1, Number(process.env.E2E_LANES ?? 2) || 1);
const playwright = path.join(DIR, 'node_modules/.bin/playwright');
const bin = fs.existsSync(playwright) ? playwright : path.join(DIR, '../node_modules/.bin/playwright');

/** One Playwright run; its output lines carry the lane's name when there are several. */
function run(lane, files) {
  return new Promise((resolve) => {
    const env = { ...process.env };
    if (lane) env.E2E_LANE = String(lane);
    const extra = lane ? ['--output', `test-results/lane-${lane}`] : [];
    const child = spawn(bin, ['test', ...extra, ...files], { cwd: DIR, env, stdio: lane ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (lane) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.setEncoding('utf8').on('data', (d) => {
          const lines = (rest + d).split('\n');
          rest = lines.pop() ?? '';
          for (const l of lines) process.stdout.write(`[lane ${lane}] ${l}\n`);
        });
        stream.on('end', () => rest && process.stdout.write(`[lane ${lane}] ${rest}\n`));
      }
    }
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Spec files dealt to `n` lanes, longest first, each to the lane with the fewest seconds so far. */
function deal(files, seconds, n) {
  const out = Array.from({ length: n }, () => ({ seconds: 0, files: [] }));
  const sorted = [...files].sort((a, b) => (seconds[b] ?? DEFAULT_SECONDS) - (seconds[a] ?? DEFAULT_SECONDS) || a.localeCompare(b));
  for (const f of sorted) {
    const lane = out.reduce((best, l) => (l.seconds < best.seconds ? l : best));
    lane.files.push(f);
    lane.seconds += seconds[f] ?? DEFAULT_SECONDS;
  }
  return out.filter((l) => l.files.length);
}

if (args.length || lanes === 1) process.exit(await run(0, args));
const files = fs
  .readdirSync(path.join(DIR, 'tests'))
  .filter((f) => f.endsWith('.spec.ts'))
  .sort();
const seconds = JSON.parse(fs.readFileSync(path.join(DIR, 'support/durations.json'), 'utf8'));
const dealt = deal(files, seconds, lanes);
const started = Date.now();
for (const [i, l] of dealt.entries()) console.log(`[lane ${i + 1}] ${l.files.length} files, about ${l.seconds} s: ${l.files.join(' ')}`);
const codes = await Promise.all(
  dealt.map((l, i) =>
    run(
      i + 1,
      l.files.map((f) => `tests/${f}`),
    ),
  ),
);
const failed = codes.map((c, i) => (c ? i + 1 : 0)).filter(Boolean);
console.log(
  `browser tests: ${dealt.length} lanes in ${((Date.now() - started) / 1000).toFixed(0)} s; ${failed.length ? `lane ${failed.join(', ')} failed` : 'all passed'}`,
);
process.exit(failed.length ? 1 : 0);
