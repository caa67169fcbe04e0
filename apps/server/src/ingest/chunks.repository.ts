import type { RawSql } from '../db/client.ts';
import type { FrameChunk } from './chunk-writer.ts';

const DAY_US = 86_400_000_000;

export interface DayUsage {
  tenantId: string;
  thingsId: string;
  day: number;
  bytes: number;
  frames: number;
  chunks: number;
}

type Column<T> = ((row: T, i: number) => string | number) | [(row: T, i: number) => string | number, string];

/**
 * One text per column: a column's values of every row joined by its separator (`,` unless given),
 * which `string_to_array` splits back in SQL. A few texts instead of a parameter per value.
 */
function columnTexts<T>(rows: Iterable<T>, columns: Column<T>[]): string[] {
  const values = columns.map((c) => (typeof c === 'function' ? c : c[0]));
  const seps = columns.map((c) => (typeof c === 'function' ? ',' : c[1]));
  const texts = columns.map(() => '');
  let i = 0;
  for (const row of rows) {
    for (let k = 0; k < values.length; k++) texts[k] += (i ? seps[k] : '') + values[k](row, i);
    i++;
  }
  return texts;
}

/** The raw frame store: day partitions of `frame_chunks`, its rows, and the capacity used per device and day. */
export const chunksRepository = {
  /** Throws 42P07 or 23505 when another server copy creates the partition at the same moment. */
  async createPartition(raw: RawSql, name: string, day: number): Promise<void> {
    await raw.exec(
      `create table if not exists ${name} partition of frame_chunks for values from (${day * DAY_US}) to (${(day + 1) * DAY_US});
           alter table ${name} alter column data set storage external`,
    );
  },

  /**
   * Inserts the chunks (distinct keys). Returns how many were new and, only when some were stored
   * before (a batch re-sent after a lost PUBACK), the keys (`things/time_start/session/seq`) of the
   * new ones: a group commit of 2,000 chunks used to read 2,000 returned rows back every time.
   *
   * One text parameter per column, the rows joined (`string_to_array` splits them back): 2,000
   * chunks used to send 20,000 parameters, and encoding them was a fifth of PGlite's time. The bytes
   * of all chunks travel as one base64 text (both drivers move it through native code, db/bytea.ts),
   * cut back into rows by offset and length.
   */
  async insert(tx: RawSql, chunks: FrameChunk[]): Promise<{ inserted: number; keys: Set<string> | null }> {
    // Where each chunk's bytes start (1-based, as `substring` counts) in the one text of all of them.
    const starts: number[] = [];
    let at = 0;
    for (const c of chunks) {
      starts.push(at + 1);
      at += c.data.byteLength;
    }
    const cols = columnTexts(chunks, [
      (c) => c.tenantId,
      (c) => c.thingsId,
      (c) => c.info.timeStart,
      (c) => c.info.timeEnd,
      (c) => c.info.session,
      (c) => c.info.seq,
      (c) => c.info.count,
      (c) => c.info.channelMask,
      [(c) => `{${c.info.ids.join(',')}}`, ';'],
      (_c, i) => starts[i],
      (c) => c.data.byteLength,
    ]);
    const bytes = Buffer.concat(
      chunks.map((c) => c.data),
      at,
    ).toString('base64');
    const { rows } = await tx.query<{ inserted: number; keys: string | null }>(
      `with ins as (
         insert into frame_chunks (tenant_id, things_id, time_start, time_end, session, seq, frame_count, channel_mask, ids, data)
           select u.tenant::uuid, u.things::uuid, u.ts::bigint, u.te::bigint, u.se::bigint, u.sq::bigint, u.n::int, u.ch::int,
                  u.ids::int[], substring(b.bytes from u.off::int for u.len::int)
             from unnest(string_to_array($1, ','), string_to_array($2, ','), string_to_array($3, ','), string_to_array($4, ','),
                         string_to_array($5, ','), string_to_array($6, ','), string_to_array($7, ','), string_to_array($8, ','),
                         string_to_array($9, ';'), string_to_array($10, ','), string_to_array($11, ','))
                    as u(tenant, things, ts, te, se, sq, n, ch, ids, off, len),
                  (select decode($12, 'base64') as bytes) b
           on conflict (things_id, time_start, session, seq) do nothing
           returning things_id, time_start, session, seq)
       select count(*)::int as inserted,
              case when count(*) < $13 then coalesce(string_agg(things_id || '/' || time_start || '/' || session || '/' || seq, ','), '') end as keys
         from ins`,
      [...cols, bytes, chunks.length],
    );
    const r = rows[0];
    return { inserted: Number(r.inserted), keys: r.keys === null ? null : new Set(r.keys ? r.keys.split(',') : []) };
  },

  /** Adds to the capacity used per device and day (a column a text, as `insert` sends them). */
  async addUsage(tx: RawSql, usage: Iterable<DayUsage>): Promise<void> {
    const cols = columnTexts(usage, [(u) => u.tenantId, (u) => u.thingsId, (u) => u.day, (u) => u.bytes, (u) => u.frames, (u) => u.chunks]);
    await tx.query(
      `insert into storage_usage (tenant_id, things_id, day, bytes, frames, chunks)
         select u.tenant::uuid, u.things::uuid, date '1970-01-01' + u.day::int, u.bytes::bigint, u.frames::bigint, u.chunks::bigint
           from unnest(string_to_array($1, ','), string_to_array($2, ','), string_to_array($3, ','), string_to_array($4, ','),
                       string_to_array($5, ','), string_to_array($6, ',')) as u(tenant, things, day, bytes, frames, chunks)
         on conflict (things_id, day) do update set bytes = storage_usage.bytes + excluded.bytes,
           frames = storage_usage.frames + excluded.frames, chunks = storage_usage.chunks + excluded.chunks`,
      cols,
    );
  },
};
