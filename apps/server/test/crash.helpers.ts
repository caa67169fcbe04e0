import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { type Database, openDatabase, type RawSql } from '../src/db/client.ts';
import { openTestDatabase, type TestApp } from './helper.ts';

export type SqlMatch = (sql: string, params: unknown[]) => boolean;

/**
 * A database seen through a server copy that can die on the spot, in-process. From the moment of the
 * crash every statement of that copy hangs for ever (a dead process writes nothing more); a
 * transaction open at that moment is rolled back, as PostgreSQL does when a connection drops. The
 * database itself stays open for the copy started next.
 */
export function crashable(database: Database) {
  let crashed = false;
  let trigger: SqlMatch | null = null;
  const never = () => new Promise<never>(() => {});
  const dying = (sql: string, params: unknown[]) => {
    if (!crashed && trigger?.(sql, params)) crashed = true;
    return crashed;
  };
  const wrap = (raw: RawSql, inTx: boolean): RawSql => ({
    query<T>(text: string, params: unknown[] = []) {
      if (dying(text, params)) return inTx ? Promise.reject(new Error('crashed')) : never();
      return raw.query<T>(text, params);
    },
    exec(text: string) {
      if (dying(text, [])) return inTx ? Promise.reject(new Error('crashed')) : never();
      return raw.exec(text);
    },
    transaction<T>(fn: (tx: RawSql) => Promise<T>) {
      if (crashed) return inTx ? Promise.reject(new Error('crashed')) : never();
      return raw
        .transaction((tx) => fn(wrap(tx, true)))
        .then(
          (v) => (crashed ? never() : v),
          (e) => (crashed ? never() : Promise.reject(e)),
        );
    },
  });
  return {
    database: { ...database, raw: wrap(database.raw, false), close: async () => {} } as Database,
    /** Dies when the copy sends the first statement that `match` accepts (that statement never runs). */
    at(match: SqlMatch) {
      trigger = match;
    },
    /** Dies now. */
    now() {
      crashed = true;
    },
    get crashed() {
      return crashed;
    },
  };
}

/** Matches the `n`-th statement (1-based) that `match` accepts. */
export function nth(n: number, match: SqlMatch): SqlMatch {
  let seen = 0;
  return (sql, params) => match(sql, params) && ++seen === n;
}

/** Builds a server copy on `database` (ready, not listening). Closing it leaves the database open. */
export async function startCopy(config: Config, database: Database): Promise<TestApp> {
  const app = await buildApp(config, { database, logger: false });
  await app.ready();
  return {
    app,
    config,
    database,
    close: () => app.close(),
  };
}

const BIN = path.resolve(import.meta.dirname, '../bin/loggerhead.mjs');

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/** `loggerhead serve` as its own process; resolves once it says it is running. */
export function spawnServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const t = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 120_000);
    const on = (d: Buffer) => {
      out += d.toString();
      if (out.includes('is running')) {
        clearTimeout(t);
        resolve(child);
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Resolves when the process has exited (at once if it already has). */
export const exited = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode ? r() : c.once('exit', () => r())));

/**
 * The database a real `loggerhead serve` process will share with the test: a fresh one on the
 * PostgreSQL test server when TEST_DATABASE_URL is set (its `url` goes to the child's
 * DATABASE_URL), else PGlite files in `dataDir` (`url` is empty; the child opens the same files
 * once the test has closed them). `drop` removes the server database.
 */
export async function serverDatabase(dataDir: string): Promise<{ database: Database; url: string; drop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    const t = await openTestDatabase();
    return { database: t.database, url: t.url ?? '', drop: t.drop };
  }
  return { database: await openDatabase({ url: null, dataDir }), url: '', drop: async () => {} };
}
