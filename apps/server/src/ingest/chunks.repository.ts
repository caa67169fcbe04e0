import type { BytesCodec } from '../db/bytea.ts';
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

/** The raw frame store: day partitions of `frame_chunks`, its rows, and the capacity used per device and day. */
export const chunksRepository = {
  /** Throws 42P07 or 23505 when another server copy creates the partition at the same moment. */
  async createPartition(raw: RawSql, name: string, day: number): Promise<void> {
    await raw.exec(
      `create table if not exists ${name} partition of frame_chunks for values from (${day * DAY_US}) to (${(day + 1) * DAY_US});
           alter table ${name} alter column data set storage external`,
    );
  },

  /** Inserts the chunks (distinct keys); returns the keys of those not stored before. */
  async insert(
    tx: RawSql,
    chunks: FrameChunk[],
    codec: BytesCodec,
  ): Promise<{ things_id: string; time_start: number | string; session: number | string; seq: number | string }[]> {
    const params: unknown[] = [];
    const rows: string[] = [];
    for (const c of chunks) {
      const b = params.length;
      rows.push(
        `($${b + 1},$${b + 2},$${b + 3},$${b + 4},$${b + 5},$${b + 6},$${b + 7},$${b + 8},$${b + 9}::int[],${codec.param(b + 10)})`,
      );
      params.push(
        c.tenantId,
        c.thingsId,
        c.info.timeStart,
        c.info.timeEnd,
        c.info.session,
        c.info.seq,
        c.info.count,
        c.info.channelMask,
        `{${c.info.ids.join(',')}}`,
        codec.value(c.data),
      );
    }
    const { rows: ok } = await tx.query<{
      things_id: string;
      time_start: number | string;
      session: number | string;
      seq: number | string;
    }>(
      `insert into frame_chunks (tenant_id, things_id, time_start, time_end, session, seq, frame_count, channel_mask, ids, data)
         values ${rows.join(',')}
         on conflict (things_id, time_start, session, seq) do nothing
         returning things_id, time_start, session, seq`,
      params,
    );
    return ok;
  },

  /** Adds to the capacity used per device and day. */
  async addUsage(tx: RawSql, usage: Iterable<DayUsage>): Promise<void> {
    const up: unknown[] = [];
    const vals: string[] = [];
    for (const u of usage) {
      const b = up.length;
      vals.push(`($${b + 1}::uuid,$${b + 2}::uuid,$${b + 3}::date,$${b + 4}::bigint,$${b + 5}::bigint,$${b + 6}::bigint)`);
      up.push(u.tenantId, u.thingsId, new Date(u.day * 86_400_000).toISOString().slice(0, 10), u.bytes, u.frames, u.chunks);
    }
    await tx.query(
      `insert into storage_usage (tenant_id, things_id, day, bytes, frames, chunks) values ${vals.join(',')}
           on conflict (things_id, day) do update set bytes = storage_usage.bytes + excluded.bytes,
             frames = storage_usage.frames + excluded.frames, chunks = storage_usage.chunks + excluded.chunks`,
      up,
    );
  },
};
