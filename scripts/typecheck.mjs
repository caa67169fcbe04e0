#!/usr/bin/env node
/**
 * `npm run typecheck`: every workspace's `tsc -p <workspace> --noEmit`, two at a time (the machines
 * this runs on have two cores; one tsc uses one), the largest first. Each workspace keeps its own
 * compiler options (the contract is checked without Node's types, the console with the DOM's), so
 * they are not merged into one program. Prints each one's time; exits 1 if any found an error, after
 * printing what it found.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
// Largest first, so that the last one to start is a short one.
const ORDER = ['apps/web', 'apps/server', 'e2e', 'bench', 'packages/can', 'packages/simulator', 'packages/contract'];
const workspaces = pkg.workspaces
  .filter((w) => JSON.parse(fs.readFileSync(path.join(ROOT, w, 'package.json'), 'utf8')).scripts?.typecheck)
  .sort((a, b) => (ORDER.indexOf(a) + 1 || ORDER.length + 1) - (ORDER.indexOf(b) + 1 || ORDER.length + 1));
const parallel = Math.max(1, Math.min(Number(process.env.TYPECHECK_JOBS) || 2, os.availableParallelism()));
const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');

function check(workspace) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', workspace, '--noEmit', '--pretty', 'false'], { cwd: ROOT });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const s = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${workspace} (${s} s)`);
      if (code !== 0) process.stdout.write(out.replace(/^(?=.)/gm, `  ${workspace}: `));
      resolve(code === 0);
    });
  });
}

const queue = [...workspaces];
const results = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let w = queue.shift(); w; w = queue.shift()) results.push(await check(w));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
