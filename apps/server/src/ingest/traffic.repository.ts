import type { RawSql } from '../db/client.ts';

/** One device's traffic in one hour of arrival (the counter's unit, and a `traffic_hourly` row). */
export interface TrafficRow {
  tenantId: string;
  thingsId: string;
  /** The hour's start, ms. */
  hour: number;
  messages: number;
  frames: number;
  bytes: number;
  forwarded: number;
}

export interface FlowPeriodRow {
  period_start: number;
  messages: number;
  frames: number;
  bytes: number;
  forwarded: number;
}

export interface RankingRow {
  things_id: string;
  name: string | null;
  third_things_id: string | null;
  messages: number;
  frames: number;
  bytes: number;
  forwarded: number;
}

const ROWS_PER_STATEMENT = 1000;
const SUMS = `coalesce(sum(messages), 0)::float8 as messages, coalesce(sum(frames), 0)::float8 as frames,
  coalesce(sum(bytes), 0)::float8 as bytes, coalesce(sum(forwarded), 0)::float8 as forwarded`;
const RANK_ORDER = { bytes: 'bytes', messages: 'messages', frames: 'frames', forwarded: 'forwarded' } as const;

/** Per-hour traffic of each device (`traffic_hourly`): the counter adds to it, the flow and ranking views read it. */
export function trafficRepository(raw: RawSql) {
  return {
    /** Adds the counted rows to their hours. */
    async add(rows: TrafficRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const params: unknown[] = [];
        const vals: string[] = [];
        for (const r of rows.slice(i, i + ROWS_PER_STATEMENT)) {
          const b = params.length;
          vals.push(
            `($${b + 1}::uuid,$${b + 2}::uuid,to_timestamp($${b + 3}::float8 / 1000),$${b + 4}::bigint,$${b + 5}::bigint,$${b + 6}::bigint,$${b + 7}::bigint)`,
          );
          params.push(r.tenantId, r.thingsId, r.hour, r.messages, r.frames, r.bytes, r.forwarded);
        }
        await raw.query(
          `insert into traffic_hourly (tenant_id, things_id, hour, messages, frames, bytes, forwarded) values ${vals.join(',')}
             on conflict (things_id, hour) do update set messages = traffic_hourly.messages + excluded.messages,
               frames = traffic_hourly.frames + excluded.frames, bytes = traffic_hourly.bytes + excluded.bytes,
               forwarded = traffic_hourly.forwarded + excluded.forwarded`,
          params,
        );
      }
    },

    /**
     * The tenant's (or one device's) traffic per period within [begin, end) ms: periods of `periodMs`
     * that start at `originMs` (plus whole multiples). Periods without traffic are not answered.
     */
    async flow(q: { tenantId: string; thingsId?: string; begin: number; end: number; periodMs: number; originMs: number }) {
      const { rows } = await raw.query<FlowPeriodRow>(
        `select (floor((extract(epoch from hour) * 1000 - $4) / $5) * $5 + $4)::float8 as period_start, ${SUMS}
           from traffic_hourly
          where tenant_id = $1 and hour >= to_timestamp($2::float8 / 1000) and hour < to_timestamp($3::float8 / 1000)
            and ($6::uuid is null or things_id = $6::uuid)
          group by 1 order by 1`,
        [q.tenantId, q.begin, q.end, q.originMs, q.periodMs, q.thingsId ?? null],
      );
      return rows.map((r) => ({
        period_start: Number(r.period_start),
        messages: Number(r.messages),
        frames: Number(r.frames),
        bytes: Number(r.bytes),
        forwarded: Number(r.forwarded),
      }));
    },

    /** The tenant's devices by traffic within [begin, end) ms, most first (ties by device id). */
    async ranking(q: { tenantId: string; begin: number; end: number; orderBy: keyof typeof RANK_ORDER; offset: number; limit: number }) {
      const grouped = `select things_id, ${SUMS} from traffic_hourly
          where tenant_id = $1 and hour >= to_timestamp($2::float8 / 1000) and hour < to_timestamp($3::float8 / 1000)
          group by things_id`;
      const count = await raw.query<{ n: number }>(`select count(*)::int as n from (${grouped}) g`, [q.tenantId, q.begin, q.end]);
      const { rows } = await raw.query<RankingRow>(
        `select g.things_id::text as things_id, th.name, th.third_things_id, g.messages, g.frames, g.bytes, g.forwarded
           from (${grouped}) g left join things th on th.id = g.things_id and th.tenant_id = $1
          order by g.${RANK_ORDER[q.orderBy]} desc, g.things_id offset $4 limit $5`,
        [q.tenantId, q.begin, q.end, q.offset, q.limit],
      );
      return {
        total: count.rows[0].n,
        rows: rows.map((r) => ({
          ...r,
          messages: Number(r.messages),
          frames: Number(r.frames),
          bytes: Number(r.bytes),
          forwarded: Number(r.forwarded),
        })),
      };
    },

    /** Drops the hours before `before` (ms). */
    async prune(before: number): Promise<void> {
      await raw.query('delete from traffic_hourly where hour < to_timestamp($1::float8 / 1000)', [before]);
    },
  };
}
export type TrafficRepository = ReturnType<typeof trafficRepository>;
