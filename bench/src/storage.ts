import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '@loggerhead/server/config.ts';
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

/** The server's configuration for a benchmark run on that storage: free ports, quiet logs, no demo. */
export function benchConfig(storage: { dataDir: string; databaseUrl: string | null }, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}, storage.dataDir),
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    dataDir: storage.dataDir,
    webDir: null,
    logLevel: 'warn',
    adminPassword: 'Bench-Admin-123',
    experience: false,
    databaseUrl: storage.databaseUrl,
    ...overrides,
  };
}
