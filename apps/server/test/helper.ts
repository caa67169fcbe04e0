import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { buildApp, type LoggerheadApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, dumpPglite, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { type Egress, parseEgressAllow } from '../src/lib/egress.ts';

export const ADMIN_PASSWORD = 'Admin-Test-1234';

/**
 * A fresh database for one test file: in-memory PGlite, or — when TEST_DATABASE_URL is set (CI) —
 * a new database on that PostgreSQL server, dropped afterwards. It starts as a copy of a migrated
 * template (made once per set of migrations), so a test file does not re-run every migration;
 * `empty: true` gives a database with nothing in it (tests of the migrations themselves).
 */
export async function openTestDatabase(opts: { empty?: boolean; server?: string } = {}): Promise<{
  database: Database;
  url: string | null;
  drop: () => Promise<void>;
}> {
  // `server`: a PostgreSQL server whatever TEST_DATABASE_URL says (tests of the server's connections).
  const server = opts.server ?? process.env.TEST_DATABASE_URL;
  if (!server && opts.empty) {
    const database = await openDatabase({ url: 'memory://', dataDir: os.tmpdir() });
    return { database, url: null, drop: async () => database.close() };
  }
  if (!server) {
    const database =
      idlePglite.pop() ?? (await openDatabase({ url: 'memory://', dataDir: os.tmpdir(), loadDataDir: await pgliteTemplate() }));
    return {
      database,
      url: null,
      drop: async () => {
        if (await resetToTemplate(database)) idlePglite.push(database);
        else await database.close().catch(() => {});
      },
    };
  }
  const name = `lh_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const template = opts.empty ? null : await postgresTemplate(server);
  await withClient(server, (c) => c.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  const u = new URL(server);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), dataDir: os.tmpdir() });
  return {
    database,
    url: u.toString(),
    drop: async () => {
      await database.close().catch(() => {});
      await withClient(server, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const MIGRATIONS = path.join(import.meta.dirname, '../src/db/migrations');

/** A short hash of the migration files: a template is only reused for the very same migrations. */
function migrationsHash(): string {
  const h = crypto.createHash('sha256');
  for (const f of fs.readdirSync(MIGRATIONS).sort()) {
    h.update(f);
    h.update(fs.readFileSync(path.join(MIGRATIONS, f)));
  }
  return h.digest('hex').slice(0, 16);
}

let pgliteImage: Promise<Blob> | null = null;

/**
 * Migrated PGlite databases that a test file has finished with, emptied back to the template's
 * state: the next file of the same worker takes one instead of starting PGlite again, which cost
 * ~3 s of CPU per file (docs/decisions/0111-server-tests-share-modules.md).
 */
const idlePglite: Database[] = [];

interface TemplateState {
  /** Every table of the application's schemas, quoted. */
  tables: string[];
  /** The rows the migrations put in, per table, as JSON. */
  rows: { table: string; json: string }[];
  /** Every sequence's position. */
  sequences: { name: string; value: string; called: boolean }[];
  /** Tables, columns, indexes, constraints, functions and triggers: a test that changed any of these gives its database up. */
  shape: string;
}

let templateState: Promise<TemplateState> | null = null;

const SHAPE_SQL = `
  select string_agg(x, ';' order by x) as shape from (
    select table_schema || '.' || table_name || '.' || column_name || ':' || data_type || ':' || coalesce(column_default, '') as x
      from information_schema.columns where table_schema not in ('pg_catalog', 'information_schema')
    union all select schemaname || '.' || indexname || ':' || indexdef from pg_indexes where schemaname not in ('pg_catalog', 'information_schema')
    union all select conname || ':' || pg_get_constraintdef(c.oid) from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname not in ('pg_catalog', 'information_schema')
    union all select p.proname || ':' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')
    union all select tgname || ':' || tgrelid::regclass::text from pg_trigger where not tgisinternal
  ) s`;

export async function readTemplateState(raw: Database['raw']): Promise<TemplateState> {
  const { rows: tables } = await raw.query<{ t: string }>(
    `select format('%I.%I', schemaname, tablename) as t from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const rows: TemplateState['rows'] = [];
  for (const { t } of tables) {
    const { rows: r } = await raw.query<{ json: string | null }>(`select json_agg(x)::text as json from ${t} x`);
    if (r[0].json) rows.push({ table: t, json: r[0].json });
  }
  const { rows: seqs } = await raw.query<{ name: string }>(
    `select format('%I.%I', schemaname, sequencename) as name from pg_sequences
      where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const sequences: TemplateState['sequences'] = [];
  for (const { name } of seqs) {
    const { rows: r } = await raw.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${name}`);
    sequences.push({ name, value: r[0].last_value, called: r[0].is_called });
  }
  const { rows: shape } = await raw.query<{ shape: string }>(SHAPE_SQL);
  return { tables: tables.map((t) => t.t), rows, sequences, shape: shape[0].shape };
}

/**
 * Puts a used PGlite test database back as the migrated template left it: every table emptied and
 * given the migrations' rows again, every sequence at the template's position, session state reset.
 * False when it cannot be (closed, or the test changed the schema): the database is then dropped.
 */
export async function resetToTemplate(database: Database): Promise<boolean> {
  if (database.kind !== 'pglite' || database.closed) return false;
  try {
    const raw = database.raw;
    templateState ??= (async () => {
      const fresh = await openDatabase({ url: 'memory://', dataDir: os.tmpdir(), loadDataDir: await pgliteTemplate() });
      try {
        return await readTemplateState(fresh.raw);
      } finally {
        await fresh.close();
      }
    })();
    const state = await templateState;
    await raw.exec('rollback; reset all; unlisten *; select pg_advisory_unlock_all();').catch(() => {});
    const { rows: shape } = await raw.query<{ shape: string }>(SHAPE_SQL);
    if (shape[0].shape !== state.shape) return false;
    await raw.transaction(async (tx) => {
      await tx.exec(`truncate ${state.tables.join(', ')} restart identity cascade`);
      await tx.exec('set local session_replication_role = replica');
      for (const { table, json } of state.rows) {
        await tx.query(`insert into ${table} overriding system value select * from json_populate_recordset(null::${table}, $1::json)`, [
          json,
        ]);
      }
      for (const s of state.sequences) await tx.query('select setval($1::regclass, $2::bigint, $3)', [s.name, s.value, s.called]);
    });
    return true;
  } catch {
    return false;
  }
}

/** The migrated PGlite image, kept as a file in the temp folder (written once, atomically). */
function pgliteTemplate(): Promise<Blob> {
  pgliteImage ??= (async () => {
    const file = path.join(os.tmpdir(), `loggerhead-test-db-${migrationsHash()}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const database = await openDatabase({ url: 'memory://', dataDir: os.tmpdir() });
    try {
      await migrate(database.raw);
      const image = await dumpPglite(database);
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      fs.writeFileSync(tmp, Buffer.from(await image.arrayBuffer()));
      fs.renameSync(tmp, file);
      return image;
    } finally {
      await database.close();
    }
  })();
  return pgliteImage;
}

/**
 * The migrated template database on a PostgreSQL server, made once per set of migrations: built
 * under another name and renamed when complete, under an advisory lock so parallel test files wait
 * for one another instead of migrating twice.
 */
async function postgresTemplate(server: string): Promise<string> {
  const name = `lh_template_${migrationsHash()}`;
  return withClient(server, async (c) => {
    await c.query('select pg_advisory_lock(4242001)');
    try {
      const { rows } = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (rows.length) return name;
      const building = `${name}_${process.pid}`;
      await c.query(`drop database if exists ${building} with (force)`);
      await c.query(`create database ${building}`);
      const u = new URL(server);
      u.pathname = `/${building}`;
      const database = await openDatabase({ url: u.toString(), dataDir: os.tmpdir() });
      try {
        await migrate(database.raw);
      } finally {
        await database.close();
      }
      await c.query(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await c.query('select pg_advisory_unlock(4242001)');
    }
  });
}

/**
 * One sealing key for every app of a test process: copies started on one database with their own
 * DATA_DIR share it, as a deployment's copies share `SECRETS_KEY`.
 */
const TEST_SECRETS_KEY = crypto.randomBytes(32);

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-test-'));
  const loaded = loadConfig({}, dataDir);
  return {
    ...loaded,
    // Groovy workers start with the first script a test validates or runs, not with every test app.
    groovy: { ...loaded.groovy, warm: false },
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    dataDir,
    webDir: null,
    logLevel: 'silent',
    adminPassword: ADMIN_PASSWORD,
    secretsKey: TEST_SECRETS_KEY,
    experience: false,
    experienceLive: false,
    // The job scheduler (pg-boss, its own tables) starts in the tests of scheduled jobs, not in every test app.
    scheduler: false,
    // The tests' own receivers (webhooks, brokers, databases) listen on 127.0.0.1: the egress policy
    // refuses loopback by default, so the tests open that one address as a deployment would.
    egressAllow: parseEgressAllow('127.0.0.1'),
    ...overrides,
  };
}

export interface TestApp {
  app: LoggerheadApp;
  config: Config;
  database: Database;
  close(): Promise<void>;
}

/** Builds the whole app on a fresh database, ready for `app.inject`. */
export interface TestAppOptions {
  /** Collect the server's log lines here (the log is off otherwise). */
  logLines?: string[];
  /** Runs before the app is ready: routes of the test's own, on the same database. */
  beforeReady?: (app: LoggerheadApp, database: Database) => void;
  /** The egress policy (lib/egress.ts) instead of the one of the config (a test's own resolver). */
  egress?: Egress;
}

export async function createTestApp(overrides: Partial<Config> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  const config = testConfig(overrides);
  const lines = opts.logLines;
  const logStream = lines
    ? new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      })
    : undefined;
  const app = await buildApp(config, {
    database,
    ...(logStream ? { logStream } : { logger: false }),
    ...(opts.egress ? { egress: opts.egress } : {}),
  });
  opts.beforeReady?.(app, database);
  await app.ready();
  // The platform's tenant is held to its package like any other unless the system manager exempts
  // it; the tests seed freely as admin, so it is exempted here (quota tests turn it back).
  await database.raw.query('update tenants set quota_exempt = true where is_system');
  return {
    app,
    config,
    database,
    async close() {
      await app.close();
      await drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Logs in and returns the bearer header value. */
export async function login(app: LoggerheadApp, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username, password, type: 1 } });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  return `Bearer ${res.json().token}`;
}

export const loginAdmin = (app: LoggerheadApp) => login(app, 'admin', ADMIN_PASSWORD);
