import fs from 'node:fs';
import path from 'node:path';
import type { RawSql } from './client.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/**
 * Applies `migrations/NNNN_name.sql` in order, each in its own transaction,
 * recording them in `schema_migrations`. Files are never edited once landed:
 * a change is a new file. (See docs/decisions/0002-sql-migrations.md.)
 */
export async function migrate(raw: RawSql, dir = MIGRATIONS_DIR): Promise<string[]> {
  await raw.exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
  // Two server copies starting together against one PostgreSQL: one migrates, the other waits.
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  await raw.transaction(async (tx) => {
    await tx.query('lock table schema_migrations in exclusive mode');
    const done = new Set((await tx.query<{ name: string }>('select name from schema_migrations')).rows.map((r) => r.name));
    for (const f of files) {
      if (done.has(f)) continue;
      await tx.exec(fs.readFileSync(path.join(dir, f), 'utf8'));
      await tx.query('insert into schema_migrations(name) values ($1)', [f]);
      applied.push(f);
    }
  });
  return applied;
}
