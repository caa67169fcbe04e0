import { Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { fetchFile } from '../components/data-view/file-download.ts';
import { call } from './client.ts';

export interface CurveRequest {
  /** `Message.Signal`. */
  signal: string;
  channel: number;
  begin_time: number;
  end_time: number;
  /** Chart width in pixels: the server never returns more points than this. */
  width: number;
}

export interface SignalRange {
  signals: string[];
  channel: number;
  begin_time: number;
  end_time: number;
}

const R = Routes.signals;
const device = (tenantId: string, thingsId: string) => ({ tenant_id: tenantId, things_id: thingsId });
const rangeQuery = (r: SignalRange) => ({
  signals: r.signals.join(','),
  channel: r.channel,
  begin_time: Math.floor(r.begin_time),
  end_time: Math.ceil(r.end_time),
});

/**
 * The curve route serialises its body itself and sends it without a JSON content type, so the
 * client hands it over as text; read it as JSON either way.
 */
function asJson<T>(body: T | string): T {
  return typeof body === 'string' ? (JSON.parse(body) as T) : body;
}

/** Decoded signals of a device (data service): stored series, curves, rows, CSV, period, bus statistics. */
export const signalsApi = {
  series: (tenantId: string, thingsId: string, channel: number | undefined, signal?: AbortSignal) =>
    call(R.series, { params: device(tenantId, thingsId), query: { channel }, signal }),
  curve: async (tenantId: string, thingsId: string, q: CurveRequest, signal?: AbortSignal) =>
    asJson(
      await call(R.curve, {
        params: device(tenantId, thingsId),
        query: { ...q, begin_time: Math.floor(q.begin_time), end_time: Math.ceil(q.end_time), width: Math.max(1, Math.round(q.width)) },
        signal,
      }),
    ),
  data: (tenantId: string, thingsId: string, r: SignalRange, page: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(R.data, { params: device(tenantId, thingsId), query: { ...rangeQuery(r), ...page }, signal }),
  exportCsv: (tenantId: string, thingsId: string, r: SignalRange, signal?: AbortSignal) =>
    fetchFile(routePath(R.exportCsv, device(tenantId, thingsId)), {
      query: rangeQuery(r),
      signal,
      permission: R.exportCsv.permission,
      fallbackName: 'signals.csv',
    }),
  period: (
    tenantId: string,
    thingsId: string,
    q: { signal: string; channel: number; begin_time: number; end_time: number },
    signal?: AbortSignal,
  ) =>
    call(R.period, {
      params: device(tenantId, thingsId),
      query: { ...q, begin_time: Math.floor(q.begin_time), end_time: Math.ceil(q.end_time) },
      signal,
    }),
  busStats: (
    tenantId: string,
    thingsId: string,
    q: { channel?: number; begin_time: number; end_time: number; bitrate: number },
    signal?: AbortSignal,
  ) =>
    call(R.busStats, {
      params: device(tenantId, thingsId),
      query: { ...q, begin_time: Math.floor(q.begin_time), end_time: Math.ceil(q.end_time) },
      signal,
    }),
};
