import { MAX_SPAN_US } from '@loggerhead/can/protocol/batch.ts';
import type { RawSql } from '../../db/client.ts';

export interface BackfillRow {
  id: string;
  tenant_id: string;
  things_id: string;
  channel: number;
  begin_time: string | number;
  end_time: string | number;
  state: string;
  total_frames: string | number;
  done_frames: string | number;
  samples: string | number;
  error: string | null;
  created_at: string | Date;
  finished_at: string | Date | null;
}

export interface BackfillChunkRow {
  time_start: number;
  session: number;
  seq: number;
  frame_count: number;
  data: string;
}

/** The raw frames one back-fill task decodes: the channel's chunks of a range, received before the task began. */
export interface BackfillScope {
  taskId: string;
  tenantId: string;
  thingsId: string;
  channel: number;
  /** µs */
  fromUs: number;
  toUs: number;
}

function chunkFilter(r: BackfillScope) {
  const mask = 1 << Math.min(r.channel, 31);
  const chunkWhere = `tenant_id = $1 and things_id = $2 and time_start >= $3 and time_start < $4 and time_end >= $5
      and (channel_mask & $6) <> 0 and received_at < (select created_at from dbc_backfills where id = $7)`;
  const base = [r.tenantId, r.thingsId, r.fromUs - MAX_SPAN_US, r.toUs, r.fromUs, mask, r.taskId];
  return { chunkWhere, base };
}

/** Back-fill tasks (`dbc_backfills`) and the stored frames and decoded spans they read. */
export function backfillRepository(raw: RawSql) {
  return {
    /** Merged time spans (µs) of the channel's stored decoded chunks overlapping [fromUs, toUs). */
    async decodedSpans(
      tenantId: string,
      thingsId: string,
      channel: number,
      fromUs: number,
      toUs: number,
    ): Promise<{ s: number; e: number }[]> {
      const { rows } = await raw.query<{ s: number; e: number }>(
        `with c as (
         select c.t_start, c.t_end from signal_chunks c join signal_series s on s.id = c.series_id
          where s.tenant_id = $1 and s.things_id = $2 and s.channel = $3 and c.t_end >= $4 and c.t_start < $5),
       o as (select t_start, t_end, max(t_end) over (order by t_start, t_end rows between unbounded preceding and 1 preceding) as prev from c),
       g as (select t_start, t_end, sum(case when prev is null or t_start > prev then 1 else 0 end) over (order by t_start, t_end) as grp from o)
       select min(t_start)::float8 as s, max(t_end)::float8 as e from g group by grp order by 1`,
        [tenantId, thingsId, channel, fromUs, toUs],
      );
      return rows;
    },

    /** Counts the frames of the range and notes the total on the task. */
    async noteTotal(r: BackfillScope): Promise<void> {
      const { chunkWhere, base } = chunkFilter(r);
      const total = await raw.query<{ n: string | number }>(
        `select coalesce(sum(frame_count), 0)::bigint as n from frame_chunks where ${chunkWhere}`,
        base,
      );
      await raw.query('update dbc_backfills set total_frames = $2 where id = $1', [r.taskId, Number(total.rows[0].n)]);
    },

    /** The next `limit` chunks of the range after the (time_start, session, seq) key `after`. */
    async chunkPage(r: BackfillScope, after: [number, number, number] | null, limit: number): Promise<BackfillChunkRow[]> {
      const { chunkWhere, base } = chunkFilter(r);
      const page: { rows: BackfillChunkRow[] } = await raw.query<BackfillChunkRow>(
        `select time_start::float8 as time_start, session::float8 as session, seq::float8 as seq, frame_count,
                encode(data, 'base64') as data
           from frame_chunks where ${chunkWhere}
            and ($8::bigint is null or (time_start, session, seq) > ($8::bigint, $9::bigint, $10::bigint))
          order by time_start, session, seq limit ${limit}`,
        [...base, after?.[0] ?? null, after?.[1] ?? 0, after?.[2] ?? 0],
      );
      return page.rows;
    },

    /** Notes progress; false when another copy owns the task now. */
    async progress(id: string, done: number, samples: number, owner: string | null): Promise<boolean> {
      const mine = await raw.query(
        `update dbc_backfills set done_frames = $2, samples = $3 where id = $1 and ($4::uuid is null or owner = $4::uuid) returning id`,
        [id, done, samples, owner],
      );
      return mine.rows.length > 0;
    },

    async finish(id: string, state: 'done' | 'failed' | 'cancelled', error: string | null, owner: string | null): Promise<void> {
      await raw.query(
        `update dbc_backfills set state = $2, error = $3, finished_at = now()
        where id = $1 and state = 'running' and ($4::uuid is null or owner = $4::uuid)`,
        [id, state, error, owner],
      );
    },

    async insert(
      tenantId: string,
      thingsId: string,
      channel: number,
      range: { begin_time: number; end_time: number },
      owner: string | null,
    ): Promise<BackfillRow> {
      const { rows } = await raw.query<BackfillRow>(
        `insert into dbc_backfills (tenant_id, things_id, channel, begin_time, end_time, owner) values ($1, $2, $3, $4, $5, $6)
         returning *`,
        [tenantId, thingsId, channel, range.begin_time, range.end_time, owner],
      );
      return rows[0];
    },

    async latest(tenantId: string, thingsId: string, channel: number): Promise<BackfillRow | null> {
      const { rows } = await raw.query<BackfillRow>(
        `select * from dbc_backfills where tenant_id = $1 and things_id = $2 and channel = $3 order by created_at desc limit 1`,
        [tenantId, thingsId, channel],
      );
      return rows[0] ?? null;
    },

    /**
     * Takes over the running tasks of stopped copies (`dead` is the SQL test on `d.owner`); each
     * says whether its channel's binding still is the one it started with.
     */
    async takeOver(owner: string, dead: string): Promise<(BackfillRow & { resumable: boolean })[]> {
      const { rows } = await raw.query<BackfillRow & { resumable: boolean }>(
        `update dbc_backfills d set owner = $1 where d.state = 'running' and ${dead}
         returning d.*, exists (select 1 from channel_dbc_bindings b where b.things_id = d.things_id and b.channel = d.channel
                                   and b.state = 1 and b.updated_at <= d.created_at) as resumable`,
        [owner],
      );
      return rows;
    },

    async interrupt(id: string, reason: string): Promise<void> {
      await raw.query(
        `update dbc_backfills set state = 'interrupted', error = $2, finished_at = now() where id = $1 and state = 'running'`,
        [id, reason],
      );
    },
  };
}
