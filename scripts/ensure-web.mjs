// `npm start` serves the built console: build it first when it is missing or older than its sources.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const index = path.join(web, 'dist/index.html');

function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const sources = [path.join(web, 'src'), path.join(root, 'packages/contract/src'), path.join(web, 'index.html')];
const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
const changed = Math.max(
  ...sources.filter((p) => fs.existsSync(p)).map((p) => (fs.statSync(p).isDirectory() ? newest(p) : fs.statSync(p).mtimeMs)),
);
if (!built || changed > built) {
  console.log('Building the web console (first start or sources changed)…');
  execSync('npm run build -w apps/web', { cwd: root, stdio: 'inherit' });
}
