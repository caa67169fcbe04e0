import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Database, dumpPglite, openDatabase } from '../src/db/client.ts';

/** The embedded database on its own thread behaves as PGlite on the server's thread did. */
describe('PGlite on its own thread', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ url: 'memory://', dataDir: os.tmpdir() });
    await db.raw.exec(`create table t (id int primary key, at timestamptz, data bytea, n int8, doc jsonb)`);
  }, 120_000);
  afterAll(() => db?.close());

  it('returns rows with their types: timestamps, bytes, 64-bit integers and JSON', async () => {
    const at = new Date('2026-11-27T06:00:00.123Z');
    await db.raw.query('insert into t values ($1, $2, $3, $4, $5)', [1, at, Buffer.from([0, 1, 254, 255]), 2 ** 40, { a: [1, 'x'] }]);
    const { rows } = await db.raw.query<{ at: Date; data: Uint8Array; n: number; doc: unknown }>('select * from t where id = 1');
    expect(rows[0].at).toBeInstanceOf(Date);
    expect(rows[0].at.getTime()).toBe(at.getTime());
    expect([...rows[0].data]).toEqual([0, 1, 254, 255]);
    expect(Number(rows[0].n)).toBe(2 ** 40);
    expect(rows[0].doc).toEqual({ a: [1, 'x'] });
  });

  it("keeps a database error's code and constraint", async () => {
    const err = await db.raw.query('insert into t (id) values (1)').catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
    expect(err.message).toMatch(/duplicate key/);
  });

  it('commits a transaction, rolls back one that throws, and keeps other statements out while one is open', async () => {
    await db.raw.transaction(async (tx) => {
      await tx.query('insert into t (id) values (10)');
      await tx.query('insert into t (id) values (11)');
    });
    const failed = await db.raw
      .transaction(async (tx) => {
        await tx.query('insert into t (id) values (12)');
        throw new Error('changed my mind');
      })
      .catch((e: Error) => e.message);
    expect(failed).toBe('changed my mind');

    let inside = false;
    let seenInside: boolean | null = null;
    const open = db.raw.transaction(async (tx) => {
      inside = true;
      await tx.query('insert into t (id) values (13)');
      await new Promise((r) => setTimeout(r, 200));
      await tx.query('delete from t where id = 13');
      inside = false;
    });
    // Asked while the transaction is open: runs after it, never between its statements.
    await new Promise((r) => setTimeout(r, 50));
    const outside = db.raw.query<{ n: number }>('select count(*)::int as n from t where id = 13').then((r) => {
      seenInside = inside;
      return r.rows[0].n;
    });
    await open;
    expect(await outside).toBe(0);
    expect(seenInside).toBe(false);
    const { rows } = await db.raw.query<{ id: number }>('select id from t where id between 10 and 13 order by id');
    expect(rows.map((r) => r.id)).toEqual([10, 11]);
  });

  it('runs a nested transaction as a savepoint: its failure undoes only its own statements', async () => {
    await db.raw.transaction(async (tx) => {
      await tx.query('insert into t (id) values (20)');
      await tx
        .transaction(async (inner) => {
          await inner.query('insert into t (id) values (21)');
          await inner.query('insert into t (id) values (20)');
        })
        .catch(() => {});
      await tx.query('insert into t (id) values (22)');
    });
    const { rows } = await db.raw.query<{ id: number }>('select id from t where id between 20 and 22 order by id');
    expect(rows.map((r) => r.id)).toEqual([20, 22]);
  });

  it('dumps the database as an image another thread opens', async () => {
    const image = await dumpPglite(db);
    const copy = await openDatabase({ url: 'memory://', dataDir: os.tmpdir(), loadDataDir: image });
    try {
      const { rows } = await copy.raw.query<{ n: number }>('select count(*)::int as n from t');
      const { rows: here } = await db.raw.query<{ n: number }>('select count(*)::int as n from t');
      expect(rows[0].n).toBe(here[0].n);
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await copy.close();
    }
    expect(copy.closed).toBe(true);
    await expect(copy.raw.query('select 1')).rejects.toThrow(/closed/);
  }, 120_000);

  it('refuses a parameter that cannot cross to the thread, and goes on', async () => {
    await expect(db.raw.query('select $1::text', [() => 1])).rejects.toThrow();
    expect((await db.raw.query<{ x: number }>('select 2 as x')).rows[0].x).toBe(2);
  });

  it('does not keep a process alive that has nothing more to ask of it', async () => {
    const client = pathToFileURL(path.join(import.meta.dirname, '../src/db/client.ts')).href;
    // Started from this database's image (a new one would run initdb: seconds).
    const image = path.join(os.tmpdir(), `pglite-thread-${process.pid}.tar`);
    fs.writeFileSync(image, Buffer.from(await (await dumpPglite(db)).arrayBuffer()));
    onTestFinished(() => fs.rmSync(image, { force: true }));
    const script = `
      import fs from 'node:fs';
      import { openDatabase } from ${JSON.stringify(client)};
      const loadDataDir = new Blob([fs.readFileSync(${JSON.stringify(image)})]);
      const db = await openDatabase({ url: 'memory://', dataDir: ${JSON.stringify(os.tmpdir())}, loadDataDir });
      const { rows } = await db.raw.query('select 40 + 2 as x');
      console.log('answer', rows[0].x);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 90_000);
      child.on('exit', (c) => {
        clearTimeout(t);
        resolve(c);
      });
    });
    expect(out).toContain('answer 42');
    expect(code).toBe(0);
  }, 120_000);
});
