import { toB64 } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';

/** One encoded raw chunk of a series (see `encodeChunks`). */
export interface ChunkRow {
  seriesId: number;
  tStart: number;
  tEnd: number;
  n: number;
  codec: number;
  factor: number;
  offset: number;
  min: number;
  max: number;
  ts: Uint8Array;
  vals: Uint8Array;
}

/** One roll-up block key with its encoded cells. */
export interface RollupCells {
  seriesId: number;
  level: number;
  tStart: number;
  cells: Uint8Array;
}

/** A stored roll-up block, its cells as base64. */
export interface StoredRollup {
  series_id: number;
  level: number;
  t_start: number;
  cells: string;
}

/**
 * Writes of the signal store, each a statement of the caller's transaction (`tx`): bytea always
 * crosses as base64 (see db/bytea.ts).
 */
export const samplesRepository = {
  /** Locks the series rows, in id order (`ids` sorted). */
  async lockSeries(tx: RawSql, ids: number[]): Promise<void> {
    await tx.query('select id from signal_series where id = any($1::bigint[]) order by id for no key update', [ids]);
  },

  /** Inserts chunks in one statement (at most 65535 / 11 of them). */
  async insertChunks(tx: RawSql, part: ChunkRow[]): Promise<void> {
    const params: unknown[] = [];
    const rows = part.map((c) => {
      const b = params.length;
      params.push(c.seriesId, c.tStart, c.tEnd, c.n, c.codec, c.factor, c.offset, c.min, c.max, toB64(c.ts), toB64(c.vals));
      return `(${Array.from({ length: 9 }, (_, i) => `$${b + i + 1}`).join(',')},decode($${b + 10},'base64'),decode($${b + 11},'base64'))`;
    });
    await tx.query(
      `insert into signal_chunks (series_id, t_start, t_end, n, codec, v_factor, v_offset, v_min, v_max, ts, vals) values ${rows.join(',')}`,
      params,
    );
  },

  /** Creates the blocks nobody wrote yet; returns the keys it created. */
  async createRollups(tx: RawSql, part: RollupCells[]): Promise<{ series_id: number; level: number; t_start: number }[]> {
    const params: unknown[] = [];
    const values = part.map((p) => {
      const b = params.length;
      params.push(p.seriesId, p.level, p.tStart, toB64(p.cells));
      return `($${b + 1}::bigint,$${b + 2}::smallint,$${b + 3}::bigint,decode($${b + 4},'base64'))`;
    });
    const created = await tx.query<{ series_id: number; level: number; t_start: number }>(
      `insert into signal_rollups (series_id, level, t_start, cells) values ${values.join(',')}
         on conflict do nothing returning series_id, level, t_start`,
      params,
    );
    return created.rows;
  },

  /** Reads and locks existing blocks, in key order. */
  async lockRollups(tx: RawSql, keys: { seriesId: number; level: number; tStart: number }[]): Promise<StoredRollup[]> {
    const { rows } = await tx.query<StoredRollup>(
      `select r.series_id, r.level, r.t_start, encode(r.cells, 'base64') as cells from signal_rollups r
           join unnest($1::bigint[], $2::smallint[], $3::bigint[]) as k(s, l, t) on r.series_id = k.s and r.level = k.l and r.t_start = k.t
          order by r.series_id, r.level, r.t_start
          for update of r`,
      [keys.map((p) => p.seriesId), keys.map((p) => p.level), keys.map((p) => p.tStart)],
    );
    return rows;
  },

  /** Replaces the cells of existing blocks. */
  async updateRollups(tx: RawSql, blocks: RollupCells[]): Promise<void> {
    const up: unknown[] = [];
    const upRows = blocks.map((p) => {
      const b = up.length;
      up.push(p.seriesId, p.level, p.tStart, toB64(p.cells));
      return `($${b + 1}::bigint,$${b + 2}::smallint,$${b + 3}::bigint,decode($${b + 4},'base64'))`;
    });
    await tx.query(
      `update signal_rollups r set cells = k.c from (values ${upRows.join(',')}) as k(s, l, t, c)
          where r.series_id = k.s and r.level = k.l and r.t_start = k.t`,
      up,
    );
  },

  /** Adds to the series totals (samples, bytes, first and last time). */
  async addTotals(
    tx: RawSql,
    ids: number[],
    n: (number | undefined)[],
    bytes: number[],
    first: (number | undefined)[],
    last: (number | undefined)[],
  ): Promise<void> {
    await tx.query(
      `update signal_series s set samples = s.samples + k.n, bytes = s.bytes + k.b,
              first_ts = least(coalesce(s.first_ts, k.f), k.f), last_ts = greatest(coalesce(s.last_ts, k.l), k.l)
         from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) as k(id, n, b, f, l)
        where s.id = k.id`,
      [ids, n, bytes, first, last],
    );
  },
};
