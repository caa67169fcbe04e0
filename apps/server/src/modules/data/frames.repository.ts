import { MAX_SPAN_US } from '@loggerhead/can/protocol/batch.ts';
import { type BytesCodec, bytesCodec } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface ChunkRow {
  time_start: number;
  session: number;
  seq: number;
  frame_count: number;
  data: Uint8Array;
  /** time_start of the next chunk in this order (null for the last): where a time-ordered walk must open it. */
  next_start: number | null;
}

export interface RangeFilter {
  thingsId: string;
  /** µs, inclusive / exclusive. */
  from: number;
  to: number;
  channels?: number[] | null;
  ids?: number[] | null;
}

export const channelMask = (channels: number[]) => channels.reduce((m, c) => m | (1 << Math.min(c, 31)), 0);

/** SQL for chunks overlapping a range; the lower bound on time_start keeps partition pruning. */
function where(auth: Auth, f: RangeFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [auth.tenantId, f.thingsId, f.from - MAX_SPAN_US, f.to, f.from];
  let sql = 'tenant_id = $1 and things_id = $2 and time_start >= $3 and time_start < $4 and time_end >= $5';
  if (f.channels?.length) {
    params.push(channelMask(f.channels));
    sql += ` and (channel_mask & $${params.length}) <> 0`;
  }
  if (f.ids?.length) {
    params.push(`{${f.ids.join(',')}}`);
    sql += ` and ids && $${params.length}::int[]`;
  }
  return { sql, params };
}

export function framesRepository(raw: RawSql, codec: BytesCodec = bytesCodec('postgres')) {
  return {
    /**
     * Frames of the chunks matching the filter at chunk level (an upper bound with channel/id
     * filters). `inside` limits to chunks wholly within the range; the rest are the edge chunks.
     */
    async countFrames(auth: Auth, f: RangeFilter, inside = false): Promise<{ frames: number; bytes: number; chunks: number }> {
      const w = where(auth, f);
      if (inside) w.sql += ' and time_start >= $5 and time_end < $4';
      const { rows } = await raw.query<{ frames: number | null; bytes: number | null; chunks: number }>(
        `select sum(frame_count)::bigint as frames, ${inside ? '0' : 'sum(octet_length(data))::bigint'} as bytes, count(*)::int as chunks from frame_chunks where ${w.sql}`,
        w.params,
      );
      return { frames: Number(rows[0]?.frames ?? 0), bytes: Number(rows[0]?.bytes ?? 0), chunks: rows[0]?.chunks ?? 0 };
    },

    /** Headers and time columns of the chunks that straddle the range's ends (to count them exactly). */
    async edgeTimes(auth: Auth, f: RangeFilter): Promise<Uint8Array[]> {
      const w = where(auth, f);
      const { rows } = await raw.query<{ head: unknown }>(
        `select ${codec.select('substring(data from 1 for 32 + 4 * frame_count)', 'head')} from frame_chunks
          where ${w.sql} and (time_start < $5 or time_end >= $4)`,
        w.params,
      );
      return rows.map((r) => codec.read(r.head));
    },

    /**
     * Chunks in time order, read in growing pieces (1, 4, 16 … up to `batch` rows per query,
     * keyset paging) so that a first page reads one chunk and a long export few queries.
     */
    async *chunks(auth: Auth, f: RangeFilter, batch = 32): AsyncGenerator<ChunkRow> {
      const w = where(auth, f);
      let after: [number, number, number] | null = null;
      let size = 1;
      for (;;) {
        const params = [...w.params];
        let keyset = '';
        if (after) {
          params.push(after[0], after[1], after[2]);
          const n = params.length;
          keyset = ` and (time_start, session, seq) > ($${n - 2}::bigint, $${n - 1}::bigint, $${n}::bigint)`;
        }
        // lead() looks one row past the limit (the index scan is already in this order), so a
        // caller merging overlapping chunks knows when the next one starts without reading it.
        const { rows } = await raw.query<ChunkRow>(
          `select time_start, session, seq, frame_count, ${codec.select('data', 'data')},
                  lead(time_start) over (order by time_start, session, seq) as next_start
             from frame_chunks where ${w.sql}${keyset}
            order by time_start, session, seq limit ${size}`,
          params,
        );
        for (const r of rows) yield { ...r, data: codec.read(r.data), next_start: r.next_start === null ? null : Number(r.next_start) };
        if (rows.length < size) return;
        size = Math.min(batch, size * 4);
        const last = rows[rows.length - 1];
        after = [Number(last.time_start), Number(last.session), Number(last.seq)];
      }
    },
  };
}
