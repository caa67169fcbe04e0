import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, readTemplateState, resetToTemplate } from './helper.ts';

const MIGRATIONS = fs.readdirSync(path.join(import.meta.dirname, '../src/db/migrations')).filter((f) => f.endsWith('.sql'));

describe('test databases', () => {
  it('start migrated: every migration recorded, its tables present', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      const applied = (await database.raw.query<{ name: string }>('select name from schema_migrations')).rows.map((r) => r.name);
      expect(applied.sort()).toEqual([...MIGRATIONS].sort());
      const { rows } = await database.raw.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
      expect(rows[0].n).toBeGreaterThan(MIGRATIONS.length);
    } finally {
      await drop();
    }
  });

  it('a used PGlite database is put back exactly as the template left it; a server database is not reused', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      if (database.kind !== 'pglite') {
        // On a PostgreSQL server each file gets a new database copied from the template, dropped after.
        expect(await resetToTemplate(database)).toBe(false);
        return;
      }
      const before = await readTemplateState(database.raw);
      expect(before.rows.map((r) => r.table)).toContain('public.device_types');
      // A file's worth of changes: seeded rows gone, a row added, sequences moved on.
      await database.raw.query('delete from device_types');
      await database.raw.query(`insert into schema_migrations (name) values ('9999_left_behind.sql')`);
      await database.raw.query(
        `select setval(format('%I.%I', schemaname, sequencename)::regclass, 4242) from pg_sequences where schemaname = 'public'`,
      );
      expect(await readTemplateState(database.raw)).not.toEqual(before);
      expect(await resetToTemplate(database)).toBe(true);
      expect(await readTemplateState(database.raw)).toEqual(before);
      // A changed schema cannot be put back: the database is given up instead of reused.
      await database.raw.exec('create table left_behind (x int)');
      expect(await resetToTemplate(database)).toBe(false);
    } finally {
      await drop();
    }
  });
});
