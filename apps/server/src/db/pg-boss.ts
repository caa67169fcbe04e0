import type { RawSql } from './client.ts';

/**
 * pg-boss speaks to the database through our connection (PGlite or the PostgreSQL pool): statements
 * with parameters go as one query; its multi-statement scripts (schema, advisory-locked batches) go
 * as a script when the engine refuses several commands in one prepared statement.
 */
export function bossDb(raw: RawSql) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values?.length) return { rows: (await raw.query(text, values)).rows ?? [] };
      try {
        const r = await raw.query(text);
        return { rows: Array.isArray(r.rows) ? r.rows : [] };
      } catch (e) {
        if (!/multiple commands/i.test(String((e as Error)?.message))) throw e;
        await raw.exec(text);
        return { rows: [] };
      }
    },
  };
}
