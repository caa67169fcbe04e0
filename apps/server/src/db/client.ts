import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPgliteThread } from './pglite-thread.ts';

/** The SQL surface both drivers provide; every query (repositories, migrations) goes through it. */
export interface RawSql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs several statements (no parameters), e.g. a migration file. */
  exec(text: string): Promise<void>;
  /** Runs fn inside one transaction on one connection. */
  transaction<T>(fn: (tx: RawSql) => Promise<T>): Promise<T>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  raw: RawSql;
  /**
   * Its statements run off the server's thread (a PostgreSQL server; PGlite on its own thread), so
   * work here goes on while the database works: two group commits may be in flight.
   */
  offThread: boolean;
  /** True once closed (or, on the embedded database's own thread, once that thread has stopped). */
  readonly closed: boolean;
  /** The whole database as one tar image (PGlite only). */
  dump?: () => Promise<Blob>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Whether the database answers a trivial statement (the health check's `ping`). */
export async function answers(db: { query(text: string): Promise<unknown> }): Promise<boolean> {
  try {
    await db.query('select 1');
    return true;
  } catch {
    return false;
  }
}

/** How long the health check's `ping` waits for the database before it says it is down. */
export const PING_TIMEOUT_MS = 2000;

/** Whether the database answers a trivial statement within `PING_TIMEOUT_MS`. */
async function answersSoon(db: { query(text: string): Promise<unknown> }): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => {
    timer = setTimeout(() => r(false), PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([answers(db), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** SQLSTATEs of a database server that is gone, going, or not letting this client in (yet). */
const LOST_STATES = /^(08...|57P0[1-3]|53300|55000)$/;
/** What node and pg say when the connection itself broke or never came up. */
const LOST_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const LOST_MESSAGES = /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable/i;

/**
 * Whether `err` says the database server cannot be reached (a lost or refused connection), as
 * opposed to a statement it refused: the request is answered 503 `db.unavailable`, and the
 * connection pool opens new connections once the server is back.
 */
export function isConnectionLoss(err: unknown): boolean {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (LOST_ERRNOS.has(code) || LOST_STATES.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && LOST_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * A PostgreSQL server when `url` names one; otherwise PGlite, in `dataDir/pg` (or in memory for
 * `memory://`), on a worker thread of its own unless `thread` is false (pglite-thread.ts).
 */
export async function openDatabase(opts: { url: string | null; dataDir: string; loadDataDir?: Blob; thread?: boolean }): Promise<Database> {
  if (opts.url && !opts.url.startsWith('memory:')) return openPostgres(opts.url);
  const dir = opts.url ? undefined : path.join(opts.dataDir, 'pg');
  if (dir) fs.mkdirSync(dir, { recursive: true });
  return opts.thread === false ? openPglite(dir, opts.loadDataDir) : openPgliteThread(dir, opts.loadDataDir);
}

/** A PGlite database as one tar image (tests copy a migrated template instead of migrating each time). */
export async function dumpPglite(database: Database): Promise<Blob> {
  if (!database.dump) throw new Error('not a PGlite database');
  return database.dump();
}

async function openPglite(dir: string | undefined, loadDataDir?: Blob): Promise<Database> {
  // In memory it is 'memory://', not undefined: PGlite ignores `loadDataDir` without a data dir.
  const client = new PGlite(dir ?? 'memory://', loadDataDir ? { loadDataDir } : {});
  await client.waitReady;
  const wrap = (c: Pick<PGlite, 'query' | 'exec'>): RawSql => ({
    async query<T>(text: string, params?: unknown[]) {
      const r = await c.query<T>(text, params as unknown[]);
      return { rows: r.rows };
    },
    async exec(text: string) {
      await c.exec(text);
    },
    transaction: (fn) => client.transaction((tx) => fn(wrap(tx))),
  });
  return {
    kind: 'pglite',
    offThread: false,
    raw: wrap(client),
    get closed() {
      return client.closed;
    },
    dump: () => client.dumpDataDir('none'),
    ping: () => answers(client),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  // int8 (bigint) arrives as string by default; our bigints (µs timestamps, byte counts) fit in 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // A server that does not answer (crashed host, dropped packets) fails a connection attempt
    // after 5 s instead of holding the request, and a dead peer is noticed by TCP keepalive.
    connectionTimeoutMillis: 5000,
    keepAlive: true,
  });
  // An idle connection that breaks (the server crashed or terminated it) is dropped by the pool;
  // the next statement opens a new one.
  pool.on('error', () => {});
  const wrapClient = (c: pg.PoolClient): RawSql => ({
    async query<T>(text: string, params?: unknown[]) {
      const r = await c.query(text, params);
      return { rows: r.rows as T[] };
    },
    async exec(text: string) {
      await c.query(text);
    },
    async transaction(fn) {
      // nested: savepoint
      await c.query('savepoint sp');
      try {
        const out = await fn(wrapClient(c));
        await c.query('release savepoint sp');
        return out;
      } catch (e) {
        await c.query('rollback to savepoint sp');
        throw e;
      }
    },
  });
  const raw: RawSql = {
    async query<T>(text: string, params?: unknown[]) {
      const r = await pool.query(text, params);
      return { rows: r.rows as T[] };
    },
    async exec(text: string) {
      await pool.query(text);
    },
    async transaction(fn) {
      const c = await pool.connect();
      // A connection that breaks while it is checked out emits 'error' on the client, which the
      // pool does not listen to then: unheard, it would end the process. The statement running
      // fails with it, and the connection is destroyed on release.
      let broken: unknown = null;
      const onError = (e: unknown) => {
        broken = e;
      };
      c.on('error', onError);
      try {
        await c.query('begin');
        const out = await fn(wrapClient(c));
        await c.query('commit');
        return out;
      } catch (e) {
        await c.query('rollback').catch((r) => {
          broken ??= r;
        });
        throw e;
      } finally {
        c.off('error', onError);
        c.release(broken ? true : undefined);
      }
    },
  };
  await pool.query('select 1');
  return {
    kind: 'postgres',
    offThread: true,
    raw,
    get closed() {
      return pool.ended;
    },
    ping: () => answersSoon(pool),
    close: () => pool.end(),
  };
}
