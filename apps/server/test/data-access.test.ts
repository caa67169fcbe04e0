import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One data-access layer (docs/decisions/0110-one-data-access-layer.md): every query is written in a
 * repository (`<module>.repository.ts`), so a module's tenant scoping is read in one file. Outside
 * them only the database layer itself (`src/db/`) and the short list below may call the SQL client.
 */
const SRC = path.resolve(import.meta.dirname, '../src');

/** A call on the SQL client (`raw.query`, `tx.exec`, …); `db.select`-like builder chains count too, should one come back. */
const SQL_CALL = /\b(?:raw|tx|db|client|pool|c)\s*\.\s*(?:query|exec|select|insert|update|delete|execute)\b/g;

/** Files that may call the SQL client although they are not repositories, each with its reason. */
const ALLOWED: Record<string, string> = {
  'modules/forward/destinations.ts':
    "a forwarding destination writes into the user's own PostgreSQL table, on its own connection, not into Loggerhead's database",
};

const isDataLayer = (file: string) => file.endsWith('.repository.ts') || file.startsWith('db/');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** SQL client calls per file (path relative to src, `/` separated). */
function sqlCalls(): Map<string, number> {
  const out = new Map<string, number>();
  for (const full of sourceFiles(SRC)) {
    const n = fs.readFileSync(full, 'utf8').match(SQL_CALL)?.length ?? 0;
    if (n) out.set(path.relative(SRC, full).split(path.sep).join('/'), n);
  }
  return out;
}

describe('data access', () => {
  const calls = sqlCalls();

  it('finds the queries of the repositories and of the database layer', () => {
    // A pattern that stopped matching would let every file pass.
    expect(calls.get('modules/things/things.repository.ts')).toBeGreaterThan(5);
    expect(calls.get('modules/firmware/firmware.repository.ts')).toBeGreaterThan(5);
    expect(calls.get('db/migrate.ts')).toBeGreaterThan(0);
    expect('  await tx\n    .query(`select 1`)'.match(SQL_CALL)).toHaveLength(1);
    expect("db.select().from(users); raw.exec('x')".match(SQL_CALL)).toHaveLength(2);
    expect('/^a$/.exec(s); hash.update(b); req.query.x'.match(SQL_CALL)).toBeNull();
  });

  it('calls the SQL client only from repositories and the database layer', () => {
    const outside = [...calls.keys()].filter((f) => !isDataLayer(f) && !(f in ALLOWED));
    expect(outside, 'move these queries into the module repository').toEqual([]);
  });

  it('allows only files that call the SQL client, each with its reason', () => {
    const stale = Object.keys(ALLOWED).filter((f) => !calls.has(f));
    expect(stale, 'take these files off the list').toEqual([]);
    for (const [file, reason] of Object.entries(ALLOWED)) expect(reason.length, file).toBeGreaterThan(10);
  });
});
