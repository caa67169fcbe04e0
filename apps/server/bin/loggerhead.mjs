#!/usr/bin/env node
// The `loggerhead` command. Sources are TypeScript, run through tsx's loader — except the commands
// that only compute (`decode`, `dbc`): they run from one bundled file that esbuild builds on first
// use and builds again when any of its sources changes, so they start without the loader's cost
// (docs/decisions/0104-cli-bundles.md). Anything wrong with the bundle falls back to the loader.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
/** command → [source file, exported function]. */
const BUNDLED = { decode: ['src/cli/decode.ts', 'decode'], dbc: ['src/cli/dbc.ts', 'dbc'] };

/** Whether every source the bundle was built from is as it was then. */
function fresh(bundle, inputs) {
  try {
    if (!fs.existsSync(bundle)) return false;
    const list = JSON.parse(fs.readFileSync(inputs, 'utf8'));
    return list.every(([file, mtime, size]) => {
      const s = fs.statSync(file);
      return s.mtimeMs === mtime && s.size === size;
    });
  } catch {
    return false;
  }
}

async function bundled(command) {
  const [entry, name] = BUNDLED[command];
  const esbuildMain = createRequire(import.meta.url).resolve('esbuild');
  const nodeModules = esbuildMain.slice(0, esbuildMain.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length);
  const cache = path.join(nodeModules, '.cache', 'loggerhead');
  const bundle = path.join(cache, `${command}.mjs`);
  const inputs = path.join(cache, `${command}.inputs.json`);
  if (!fresh(bundle, inputs)) {
    const { build } = await import(pathToFileURL(esbuildMain).href);
    fs.mkdirSync(cache, { recursive: true });
    const tmp = `${bundle}.${process.pid}.tmp`;
    const r = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: tmp,
      metafile: true,
      logLevel: 'silent',
    });
    const list = Object.keys(r.metafile.inputs).map((f) => {
      const file = path.resolve(root, f);
      const s = fs.statSync(file);
      return [file, s.mtimeMs, s.size];
    });
    // Renamed into place: a command starting meanwhile sees the old bundle or the new one, whole.
    fs.renameSync(tmp, bundle);
    fs.writeFileSync(`${inputs}.${process.pid}.tmp`, JSON.stringify(list));
    fs.renameSync(`${inputs}.${process.pid}.tmp`, inputs);
  }
  const mod = await import(`${pathToFileURL(bundle).href}?t=${fs.statSync(bundle).mtimeMs}`);
  return mod[name];
}

const [command, ...rest] = process.argv.slice(2);
let run = null;
if (Object.hasOwn(BUNDLED, command ?? '') && !process.env.LOGGERHEAD_NO_BUNDLE) run = await bundled(command).catch(() => null);
if (run) process.exitCode = await run(rest);
else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
