import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the database (with the session signing keys), uploaded, recalled and exported
 * files, and firmware and ECU images: only the server's own user may read it. At start the folder
 * is created 0700, and a folder left by an older version is tightened — every folder in it 0700,
 * every file 0600. Files written later get the same modes from the process umask (`serve` sets
 * 0077).
 */
export function secureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tighten(dataDir);
}

function tighten(dir: string): void {
  chmodIfLooser(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tighten(full);
    else if (entry.isFile()) chmodIfLooser(full, 0o600);
    // (symbolic links are left alone: their target may be anywhere)
  }
}

function chmodIfLooser(p: string, mode: number): void {
  const current = fs.statSync(p).mode & 0o777;
  if ((current & ~mode) === 0) return;
  try {
    fs.chmodSync(p, current & mode);
  } catch (e) {
    throw new Error(
      `DATA_DIR: cannot restrict ${p} to its owner (${(e as NodeJS.ErrnoException).code}); run the server as the user owning DATA_DIR`,
    );
  }
}
