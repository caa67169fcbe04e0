import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type LoggerheadApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';

export const ADMIN_PASSWORD = 'Admin-Test-1234';

/**
 * A fresh database for one test file: in-memory PGlite, or — when
 * TEST_DATABASE_URL is set (CI) — a new database on that PostgreSQL server,
 * dropped afterwards.
 */
export async function openTestDatabase(): Promise<{ database: Database; url: string | null; drop: () => Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    const database = await openDatabase({ url: 'memory://', dataDir: os.tmpdir() });
    return { database, url: null, drop: async () => database.close() };
  }
  const name = `lh_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), dataDir: os.tmpdir() });
  return {
    database,
    url: u.toString(),
    drop: async () => {
      await database.close().catch(() => {});
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-test-'));
  return {
    ...loadConfig({}, dataDir),
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    dataDir,
    webDir: null,
    logLevel: 'silent',
    adminPassword: ADMIN_PASSWORD,
    experience: false,
    experienceLive: false,
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
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  const config = testConfig(overrides);
  const app = await buildApp(config, { database, logger: false });
  await app.ready();
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
