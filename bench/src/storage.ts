import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * Where one benchmark run keeps its data: a fresh folder (PGlite's files and the run's own), and
 * with `BENCH_DATABASE_URL` a fresh database on that PostgreSQL server. `cleanup` removes both.
 */
export async function benchStorage(name: string): Promise<{ dataDir: string; databaseUrl: string | null; cleanup(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lh-bench-${name}-`));
  const server = process.env.BENCH_DATABASE_URL ?? null;
  const dbName = `lh_bench_${name.replace(/\W/g, '_')}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server as string });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  let databaseUrl: string | null = null;
  if (server) {
    await admin(`create database ${dbName}`);
    const u = new URL(server);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  return {
    dataDir,
    databaseUrl,
    async cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (server) await admin(`drop database if exists ${dbName} with (force)`);
    },
  };
}
