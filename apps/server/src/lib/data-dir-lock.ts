import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite allows one process per data directory; two would corrupt it.
 * Take `DATA_DIR/loggerhead.lock` holding our pid; refuse when a live process holds it.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'loggerhead.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {}
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(file, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `DATA_DIR ${dataDir} is in use by another Loggerhead server (pid ${pid}). Stop it, or set DATA_DIR to another directory.`,
        );
      }
      fs.rmSync(file, { force: true }); // stale lock of a dead process
    }
  }
  throw new Error(`could not lock DATA_DIR ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
