import { MAX_SPAN_US } from '@loggerhead/can/protocol/batch.ts';
import { liveCurvesConfigKey } from '@loggerhead/contract';
import { fromB64 } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { CELLS } from './rollup.ts';
import { CHUNK_WINDOW_US, ROW_OVERHEAD } from './signals.writer.ts';

export interface SeriesRow {
  id: number;
  channel: number;
  message: string;
  signal: string;
  unit: string;
  first_ts: number | null;
  last_ts: number | null;
  samples: number;
  bytes: number;
}

export interface ChunkData {
  series_id: number;
  t_start: number;
  t_end: number;
  n: number;
  codec: number;
  v_factor: number;
  v_offset: number;
  ts: Uint8Array;
  vals: Uint8Array;
  id: number;
}

export interface StartedBinding {
  channel: number;
  dbc_id: string;
  dbc_version: number;
  /** The strategy's signals, or null for every signal of the DBC. */
  signals: { message: string; signal: string }[] | null;
}

const SERIES_COLS = `id, channel, message, signal, unit, first_ts, last_ts, samples, bytes`;
// bigint columns arrive as strings from PGlite.
const num = <T extends object>(r: T, keys: (keyof T)[]): T => {
  const o = r as Record<keyof T, unknown>;
  for (const k of keys) if (o[k] !== null && o[k] !== undefined) o[k] = Number(o[k]);
  return r;
};
const seriesRow = (r: SeriesRow) => num(r, ['id', 'first_ts', 'last_ts', 'samples', 'bytes']);
const CHUNK_COLS = `series_id, t_start, t_end, n, codec, v_factor, v_offset, encode(ts, 'base64') as ts, encode(vals, 'base64') as vals, id`;
type ChunkText = Omit<ChunkData, 'ts' | 'vals'> & { ts: string; vals: string };
const chunkRow = (r: ChunkText): ChunkData => ({
  ...num(r, ['series_id', 't_start', 't_end', 'id']),
  ts: fromB64(r.ts),
  vals: fromB64(r.vals),
});

/** SQL only. Query functions are scoped by `auth.tenantId`; ingest functions by the device's tenant. */
export function signalsRepository(raw: RawSql) {
  return {
    /** Bindings of a device whose decoding is started, with what the decoder needs. */
    async startedBindings(tenantId: string, thingsId: string): Promise<StartedBinding[]> {
      const { rows } = await raw.query<StartedBinding>(
        `select b.channel, b.dbc_id, extract(epoch from f.updated_at)::float8 as dbc_version, s.signals
           from channel_dbc_bindings b
           join dbc_files f on f.id = b.dbc_id
           left join signal_strategies s on s.id = b.strategy_id
          where b.tenant_id = $1 and b.things_id = $2 and b.state = 1`,
        [tenantId, thingsId],
      );
      return rows;
    },

    /** The same for many devices in one statement (a fleet's batch group), each row with its device. */
    async startedBindingsOf(devices: { tenantId: string; thingsId: string }[]): Promise<(StartedBinding & { things_id: string })[]> {
      const { rows } = await raw.query<StartedBinding & { things_id: string }>(
        `select b.things_id, b.channel, b.dbc_id, extract(epoch from f.updated_at)::float8 as dbc_version, s.signals
           from channel_dbc_bindings b
           join dbc_files f on f.id = b.dbc_id
           left join signal_strategies s on s.id = b.strategy_id
          where (b.tenant_id, b.things_id) in (select * from unnest($1::uuid[], $2::uuid[])) and b.state = 1`,
        [devices.map((d) => d.tenantId), devices.map((d) => d.thingsId)],
      );
      return rows;
    },

    async dbcContent(dbcId: string): Promise<string | null> {
      const { rows } = await raw.query<{ content: string }>('select content from dbc_files where id = $1', [dbcId]);
      return rows[0]?.content ?? null;
    },

    /**
     * Series ids for (channel, message, signal), created when missing — only while the channel's
     * decoding is started (-1 otherwise), so a pause or unbind made by another server copy stops
     * the writes at once even though this copy's binding cache is a few seconds old.
     */
    async ensureSeries(
      tenantId: string,
      thingsId: string,
      items: { channel: number; message: string; signal: string; unit: string }[],
    ): Promise<number[]> {
      if (!items.length) return [];
      const args = [items.map((i) => i.channel), items.map((i) => i.message), items.map((i) => i.signal), items.map((i) => i.unit)];
      await raw.query(
        `insert into signal_series (tenant_id, things_id, channel, message, signal, unit)
         select $1, $2, c, m, s, u from unnest($3::smallint[], $4::text[], $5::text[], $6::text[]) as k(c, m, s, u)
          where exists (select 1 from channel_dbc_bindings b where b.things_id = $2 and b.channel = k.c and b.state = 1)
         on conflict (things_id, channel, message, signal) do nothing`,
        [tenantId, thingsId, ...args],
      );
      const { rows } = await raw.query<{ id: number; channel: number; message: string; signal: string }>(
        `select s.id, s.channel, s.message, s.signal from signal_series s
           join unnest($3::smallint[], $4::text[], $5::text[]) as k(c, m, g) on s.channel = k.c and s.message = k.m and s.signal = k.g
           join channel_dbc_bindings b on b.things_id = s.things_id and b.channel = s.channel and b.state = 1
          where s.tenant_id = $1 and s.things_id = $2`,
        [tenantId, thingsId, args[0], args[1], args[2]],
      );
      const byKey = new Map(rows.map((r) => [`${r.channel}/${r.message}/${r.signal}`, Number(r.id)]));
      return items.map((i) => byKey.get(`${i.channel}/${i.message}/${i.signal}`) ?? -1);
    },

    async listSeries(auth: Auth, thingsId: string, channel?: number): Promise<SeriesRow[]> {
      const { rows } = await raw.query<SeriesRow>(
        `select ${SERIES_COLS} from signal_series
          where tenant_id = $1 and things_id = $2 and ($3::int is null or channel = $3)
          order by channel, message, signal`,
        [auth.tenantId, thingsId, channel ?? null],
      );
      return rows.map(seriesRow);
    },

    async findSeries(auth: Auth, thingsId: string, message: string, signal: string, channel?: number): Promise<SeriesRow[]> {
      const { rows } = await raw.query<SeriesRow>(
        `select ${SERIES_COLS} from signal_series
          where tenant_id = $1 and things_id = $2 and message = $3 and signal = $4 and ($5::int is null or channel = $5)
          order by channel`,
        [auth.tenantId, thingsId, message, signal, channel ?? null],
      );
      return rows.map(seriesRow);
    },

    /**
     * Chunks of the series overlapping [fromUs, toUs), in time order, at most `limit` from the
     * position after `after` (keyset paging). A chunk lies within one minute, so the scan starts at
     * the minute of `fromUs`.
     */
    async chunks(
      seriesIds: number[],
      fromUs: number,
      toUs: number,
      opts: { after?: { t: number; id: number }; limit?: number } = {},
    ): Promise<ChunkData[]> {
      const lo = Math.floor(fromUs / CHUNK_WINDOW_US) * CHUNK_WINDOW_US;
      const { rows } = await raw.query<ChunkText>(
        `select ${CHUNK_COLS} from signal_chunks
          where series_id = any($1::bigint[]) and t_start >= $2 and t_start < $3 and t_end >= $4
            and ($5::bigint is null or (t_start, id) > ($5::bigint, $6::bigint))
          order by t_start, id
          limit $7`,
        [seriesIds, lo, toUs, fromUs, opts.after?.t ?? null, opts.after?.id ?? 0, opts.limit ?? 1_000_000],
      );
      return rows.map(chunkRow);
    },

    /** Samples of chunks wholly inside the range (counted without decoding) and the chunks on its edges. */
    async countInside(seriesIds: number[], fromUs: number, toUs: number): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        `select coalesce(sum(n), 0)::float8 as n from signal_chunks
          where series_id = any($1::bigint[]) and t_start >= $2 and t_start < $3 and t_end < $3`,
        [seriesIds, fromUs, toUs],
      );
      return Number(rows[0].n);
    },

    async edgeChunks(seriesIds: number[], fromUs: number, toUs: number): Promise<ChunkData[]> {
      const lo = Math.floor(fromUs / CHUNK_WINDOW_US) * CHUNK_WINDOW_US;
      const { rows } = await raw.query<ChunkText>(
        `select ${CHUNK_COLS} from signal_chunks
          where series_id = any($1::bigint[]) and t_start >= $2 and t_start < $4 and t_end >= $3
            and (t_start < $3 or t_end >= $4)`,
        [seriesIds, lo, fromUs, toUs],
      );
      return rows.map(chunkRow);
    },

    /** Roll-up blocks of one level whose span overlaps [fromUs, toUs). */
    async rollups(seriesId: number, level: number, fromUs: number, toUs: number, spanUs: number) {
      const { rows } = await raw.query<{ t_start: number; cells: string }>(
        `select t_start, encode(cells, 'base64') as cells from signal_rollups
          where series_id = $1 and level = $2 and t_start > $3 and t_start < $4
          order by t_start`,
        [seriesId, level, fromUs - spanUs, toUs],
      );
      return rows.map((r) => ({ t_start: Number(r.t_start), cells: fromB64(r.cells) }));
    },

    /** Deletes a channel's decoded data; returns the bytes it held. */
    async deleteChannel(tenantId: string, thingsId: string, channel: number): Promise<number> {
      const { rows } = await raw.query<{ b: number }>(
        `with gone as (delete from signal_series where tenant_id = $1 and things_id = $2 and channel = $3 returning bytes)
         select coalesce(sum(bytes), 0)::float8 as b from gone`,
        [tenantId, thingsId, channel],
      );
      return Number(rows[0].b);
    },

    /**
     * Removes one channel's entries from every tenant user's saved real-time curves of a device (the
     * channel's dashboard). Entries of other channels stay; an unreadable list is left alone.
     */
    async dropChannelCurves(tenantId: string, thingsId: string, channel: number): Promise<number> {
      const key = liveCurvesConfigKey(thingsId);
      const { rows } = await raw.query<{ user_id: string; value: string }>(
        `select c.user_id, c.value from user_configs c join users u on u.id = c.user_id
          where u.tenant_id = $1 and c.key = $2`,
        [tenantId, key],
      );
      let removed = 0;
      for (const r of rows) {
        let list: unknown;
        try {
          list = JSON.parse(r.value);
        } catch {
          continue;
        }
        if (!Array.isArray(list)) continue;
        const kept = list.filter((c) => !(c && typeof c === 'object' && (c as { channel?: unknown }).channel === channel));
        if (kept.length === list.length) continue;
        removed += list.length - kept.length;
        await raw.query('update user_configs set value = $3, updated_at = now() where user_id = $1 and key = $2', [
          r.user_id,
          key,
          JSON.stringify(kept),
        ]);
      }
      return removed;
    },

    /** Deletes every decoded signal of a device (quick delete); returns the bytes it held. */
    async deleteDevice(tenantId: string, thingsId: string): Promise<number> {
      const { rows } = await raw.query<{ b: number }>(
        `with gone as (delete from signal_series where tenant_id = $1 and things_id = $2 returning bytes)
         select coalesce(sum(bytes), 0)::float8 as b from gone`,
        [tenantId, thingsId],
      );
      return Number(rows[0].b);
    },

    /**
     * Retention: deletes raw chunks that end and roll-up blocks that close before `beforeUs`, for a
     * tenant (or one of its devices). Returns the bytes freed per device.
     */
    async purgeBefore(
      tenantId: string,
      beforeUs: number,
      thingsId: string | null,
    ): Promise<{ things_id: string; bytes: number; samples: number }[]> {
      const { rows } = await raw.query<{ things_id: string; bytes: number; samples: number }>(
        `with chunks as (
           delete from signal_chunks c using signal_series s
            where c.series_id = s.id and s.tenant_id = $1 and ($3::uuid is null or s.things_id = $3) and c.t_end < $2
           returning c.series_id, c.n, octet_length(c.ts) + octet_length(c.vals) + ${ROW_OVERHEAD} as b),
         blocks as (
           delete from signal_rollups r using signal_series s
            where r.series_id = s.id and s.tenant_id = $1 and ($3::uuid is null or s.things_id = $3)
              and r.t_start + r.level::bigint * ${CELLS * 1_000_000} <= $2
           returning r.series_id, 0 as n, octet_length(r.cells) + ${ROW_OVERHEAD} as b),
         per as (select series_id, sum(n) as n, sum(b) as b from (select * from chunks union all select * from blocks) x group by series_id)
         update signal_series s set bytes = greatest(0, s.bytes - per.b), samples = greatest(0, s.samples - per.n),
                first_ts = greatest(s.first_ts, $2)
           from per where s.id = per.series_id
         returning s.things_id, per.b::float8 as bytes, per.n::float8 as samples`,
        [tenantId, beforeUs, thingsId],
      );
      const by = new Map<string, { bytes: number; samples: number }>();
      for (const r of rows) {
        const o = by.get(r.things_id) ?? { bytes: 0, samples: 0 };
        by.set(r.things_id, { bytes: o.bytes + Number(r.bytes), samples: o.samples + Number(r.samples) });
      }
      return [...by].map(([things_id, o]) => ({ things_id, ...o }));
    },

    /**
     * The end (µs) below which a device's raw chunks ending before `beforeUs` hold at most
     * `maxSamples` samples, oldest (by last sample) first: `beforeUs` when they all fit.
     */
    async samplesBound(
      tenantId: string,
      thingsId: string,
      beforeUs: number,
      maxSamples: number,
    ): Promise<{ bound: number; limited: boolean }> {
      const { rows } = await raw.query<{ over: string | null }>(
        `select min(t_end)::text as over from (
           select c.t_end, sum(c.n) over (order by c.t_end rows unbounded preceding) as run
             from signal_chunks c join signal_series s on s.id = c.series_id
            where s.tenant_id = $1 and s.things_id = $2 and c.t_end < $3) x
         where run > $4`,
        [tenantId, thingsId, beforeUs, maxSamples],
      );
      const over = rows[0]?.over;
      return over === null || over === undefined ? { bound: beforeUs, limited: false } : { bound: Number(over), limited: true };
    },

    /**
     * Quick delete of a time range: removes a device's raw chunks and roll-up blocks lying wholly
     * within [fromUs, toUs); blocks straddling an end stay. Returns the bytes freed.
     */
    async deleteRange(tenantId: string, thingsId: string, fromUs: number, toUs: number): Promise<number> {
      const { rows } = await raw.query<{ b: number }>(
        `with chunks as (
           delete from signal_chunks c using signal_series s
            where c.series_id = s.id and s.tenant_id = $1 and s.things_id = $2 and c.t_start >= $3 and c.t_end < $4
           returning c.series_id, c.n, octet_length(c.ts) + octet_length(c.vals) + ${ROW_OVERHEAD} as b),
         blocks as (
           delete from signal_rollups r using signal_series s
            where r.series_id = s.id and s.tenant_id = $1 and s.things_id = $2
              and r.t_start >= $3 and r.t_start + r.level::bigint * ${CELLS * 1_000_000} <= $4
           returning r.series_id, 0 as n, octet_length(r.cells) + ${ROW_OVERHEAD} as b),
         per as (select series_id, sum(n) as n, sum(b) as b from (select * from chunks union all select * from blocks) x group by series_id),
         upd as (update signal_series s set bytes = greatest(0, s.bytes - per.b), samples = greatest(0, s.samples - per.n)
                   from per where s.id = per.series_id returning per.b)
         select coalesce(sum(b), 0)::float8 as b from upd`,
        [tenantId, thingsId, fromUs, toUs],
      );
      return Number(rows[0].b);
    },

    /** Raw frame chunks of a device overlapping [fromUs, toUs), in time order, keyset-paged. */
    async frameChunks(
      auth: Auth,
      thingsId: string,
      fromUs: number,
      toUs: number,
      after: { t: number; session: number; seq: number } | null,
      limit: number,
    ) {
      const { rows } = await raw.query<{ time_start: number; session: number; seq: number; data: string }>(
        `select time_start, session, seq, encode(data, 'base64') as data from frame_chunks
          where tenant_id = $1 and things_id = $2 and time_start >= $3 and time_start < $4 and time_end >= $5
            and ($6::bigint is null or (time_start, session, seq) > ($6::bigint, $7::bigint, $8::bigint))
          order by time_start, session, seq
          limit $9`,
        [auth.tenantId, thingsId, fromUs - MAX_SPAN_US, toUs, fromUs, after?.t ?? null, after?.session ?? 0, after?.seq ?? 0, limit],
      );
      return rows.map((r) => ({ ...num(r, ['time_start', 'session', 'seq']), data: fromB64(r.data) }));
    },
  };
}

export type SignalsRepository = ReturnType<typeof signalsRepository>;
