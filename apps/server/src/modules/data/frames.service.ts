import { countInRange, FLAG_BRS, FLAG_ERR, FLAG_ESI, FLAG_EXT, FLAG_FD, FLAG_RTR, FLAG_TX } from '@loggerhead/can/protocol/batch.ts';
import { type FrameDto, type FramesQuery, MAX_PAGED_ENTRIES } from '@loggerhead/contract';
import type { BytesCodec } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { hex } from '../../live/live-hub.ts';
import { requireDevice } from '../things/things.access.ts';
import { forEachFrameInOrder } from './frame-order.ts';
import { framesRepository, type RangeFilter } from './frames.repository.ts';

/** Above this many candidate frames a filtered total is reported as an upper bound. */
const EXACT_COUNT_LIMIT = 500_000;

export function toDto(ts: number, channel: number, id: number, fl: number, len: number, data: Uint8Array): FrameDto {
  return {
    ts,
    channel,
    id,
    ext: (fl & FLAG_EXT) !== 0,
    fd: (fl & FLAG_FD) !== 0,
    brs: (fl & FLAG_BRS) !== 0,
    esi: (fl & FLAG_ESI) !== 0,
    rtr: (fl & FLAG_RTR) !== 0,
    err: (fl & FLAG_ERR) !== 0,
    tx: (fl & FLAG_TX) !== 0,
    dlc: len,
    data: hex(data),
  };
}

export function rangeOf(
  thingsId: string,
  q: { begin_time: number; end_time: number; channels?: number[] | null; ids?: number[] | null },
): RangeFilter {
  if (q.end_time <= q.begin_time) throw badRequest('data.bad-range', undefined, 'end_time');
  return { thingsId, from: q.begin_time * 1000, to: q.end_time * 1000, channels: q.channels ?? null, ids: q.ids ?? null };
}

export function framesService(raw: RawSql, codec?: BytesCodec) {
  const repo = framesRepository(raw, codec);
  return {
    repo,
    /** History page of raw frames (spec §9: page × size over 10000 is refused). */
    async page(auth: Auth, thingsId: string, q: FramesQuery) {
      if (q.current_page * q.page_size > MAX_PAGED_ENTRIES) throw badRequest('data.over-10000');
      await requireDevice(raw, auth, thingsId, 'read');
      const range = rangeOf(thingsId, q);
      const filter = {
        channels: range.channels?.length ? new Set(range.channels) : null,
        ids: range.ids?.length ? new Set(range.ids) : null,
        from: range.from,
        to: range.to,
      };
      const filtered = !!(filter.channels || filter.ids);
      const list: FrameDto[] = [];
      let skip = (q.current_page - 1) * q.page_size;
      let seen = 0;
      const visit = (ts: number, ch: number, id: number, fl: number, len: number, data: Uint8Array) => {
        seen++;
        if (skip > 0) skip--;
        else if (list.length < q.page_size) list.push(toDto(ts, ch, id, fl, len, data));
        return true;
      };
      let total: number;
      let exact = true;
      if (!filtered) {
        // Chunks wholly inside the range count from their headers; of the edge chunks only the time
        // columns are read. Both run beside the page query (separate connections on a server).
        const counting = Promise.all([repo.countFrames(auth, range, true), repo.edgeTimes(auth, range)]);
        counting.catch(() => {});
        // In time order across chunks (overlapping uploads merge); stops once the page is full.
        await forEachFrameInOrder(repo.chunks(auth, range), filter, (ts, ch, id, fl, len, data) => {
          visit(ts, ch, id, fl, len, data);
          return list.length < q.page_size;
        });
        const [inside, heads] = await counting;
        total = inside.frames;
        for (const head of heads) total += countInRange(head, range.from, range.to);
      } else {
        const bound = await repo.countFrames(auth, range);
        exact = bound.frames <= EXACT_COUNT_LIMIT;
        await forEachFrameInOrder(repo.chunks(auth, range), filter, (ts, ch, id, fl, len, data) => {
          visit(ts, ch, id, fl, len, data);
          return list.length < q.page_size || exact;
        });
        total = exact ? seen : bound.frames;
      }
      return { total, total_exact: exact, current_page: q.current_page, page_size: q.page_size, list };
    },
  };
}
