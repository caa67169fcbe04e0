import { FLAG_ERR, FLAG_EXT, FLAG_FD, forEachFrame } from '@loggerhead/can/protocol/batch.ts';
import { type BusIdStats, type BusStats, type BusStatsQuery, STATS_MAX_ROWS } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { requireDevice } from '../things/things.access.ts';
import type { DecoderCache } from './decoder-cache.ts';
import type { SignalsRepository } from './signals.repository.ts';

/**
 * Bits a frame occupies on the wire, with worst-case bit stuffing (classic CAN formula; CAN FD
 * frames are counted the same way at the nominal rate, an upper bound since their data phase is faster).
 */
export function frameBits(len: number, ext: boolean): number {
  const payload = 8 * len;
  return ext ? 67 + payload + Math.floor((54 + payload - 1) / 4) : 47 + payload + Math.floor((34 + payload - 1) / 4);
}

interface IdAcc {
  channel: number;
  id: number;
  ext: boolean;
  count: number;
  last: number;
  sum: number;
  sumSq: number;
  min: number;
  max: number;
  dlc: number;
}

/** Spec §4 high-level functions: per-id statistics and bus load from the raw frames, at most 100000. */
export function busStatsService(raw: RawSql, repo: SignalsRepository, cache: DecoderCache) {
  return {
    async stats(auth: Auth, thingsId: string, q: BusStatsQuery): Promise<BusStats> {
      if (q.end_time <= q.begin_time) throw badRequest('data.bad-range', undefined, 'end_time');
      await requireDevice(raw, auth, thingsId, 'read');
      const from = q.begin_time * 1000;
      const to = q.end_time * 1000;
      const ids = new Map<string, IdAcc>();
      const bits = new Map<number, number>();
      let frames = 0;
      let first = Number.POSITIVE_INFINITY;
      let last = Number.NEGATIVE_INFINITY;
      let truncated = false;
      let after: { t: number; session: number; seq: number } | null = null;
      const channels = q.channel === undefined ? null : new Set([q.channel]);
      // Chunks are sorted by start; frames of overlapping chunks (two sessions) may interleave, which
      // only matters for intervals across the seam.
      outer: for (;;) {
        const rows = await repo.frameChunks(auth, thingsId, from, to, after, 20);
        for (const c of rows) {
          let stop = false;
          forEachFrame(c.data, { channels, from, to }, (ts, ch, id, fl, len) => {
            if (fl & FLAG_ERR) return true;
            if (frames >= STATS_MAX_ROWS) {
              truncated = true;
              stop = true;
              return false;
            }
            frames++;
            if (ts < first) first = ts;
            if (ts > last) last = ts;
            const ext = (fl & FLAG_EXT) !== 0;
            const key = `${ch}/${ext ? 'x' : 's'}${id}`;
            let a = ids.get(key);
            if (!a) {
              a = { channel: ch, id, ext, count: 0, last: ts, sum: 0, sumSq: 0, min: Number.POSITIVE_INFINITY, max: 0, dlc: len };
              ids.set(key, a);
            } else {
              const d = ts - a.last;
              a.sum += d;
              a.sumSq += d * d;
              if (d < a.min) a.min = d;
              if (d > a.max) a.max = d;
              a.last = ts;
            }
            a.count++;
            a.dlc = len;
            bits.set(ch, (bits.get(ch) ?? 0) + frameBits(fl & FLAG_FD ? len : Math.min(len, 8), ext));
            return true;
          });
          if (stop) break outer;
        }
        if (rows.length < 20) break;
        const l = rows[rows.length - 1];
        after = { t: l.time_start, session: l.session, seq: l.seq };
      }

      const plans = await cache.plansFor(auth.tenantId, thingsId);
      const list: BusIdStats[] = [...ids.values()]
        .sort((a, b) => a.channel - b.channel || a.id - b.id || Number(a.ext) - Number(b.ext))
        .map((a) => {
          const n = a.count - 1;
          const mean = n > 0 ? a.sum / n : null;
          return {
            channel: a.channel,
            id: a.id,
            ext: a.ext,
            count: a.count,
            cycle_ms: mean === null ? null : mean / 1000,
            jitter_ms: mean === null ? null : Math.sqrt(Math.max(0, a.sumSq / n - mean * mean)) / 1000,
            min_ms: n > 0 ? a.min / 1000 : null,
            max_ms: n > 0 ? a.max / 1000 : null,
            dlc: a.dlc,
            message: plans.get(a.channel)?.decoder.lookup(a.id, a.ext)?.name ?? null,
          };
        });
      const spanUs = frames ? last - first : 0;
      // Load is a per-bus figure: given for one channel (asked for, or the only one seen).
      const oneChannel = bits.size === 1 ? [...bits.values()][0] : null;
      const busLoad = spanUs > 0 && oneChannel !== null ? (oneChannel / ((spanUs / 1e6) * q.bitrate)) * 100 : null;
      return {
        frames,
        truncated,
        span_ms: spanUs / 1000,
        bus_load: busLoad === null ? null : Math.round(busLoad * 100) / 100,
        bitrate: q.bitrate,
        ids: list,
      };
    },
  };
}
