import type { BusStats, Curve, SignalDataPageSchema, SignalPeriod, SignalSeries } from '@loggerhead/contract/schemas/signals.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

export type SignalDataPage = z.infer<typeof SignalDataPageSchema>;

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

const dataPath = (tenantId: string, thingsId: string) =>
  `/data-mgmt/tenants/${encodeURIComponent(tenantId)}/things/${encodeURIComponent(thingsId)}`;
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
    api.get<SignalSeries[]>(`${dataPath(tenantId, thingsId)}/signals`, {
      signal,
      query: { channel },
      permission: 'data-mgmt:things-data:query',
    }),
  curve: async (tenantId: string, thingsId: string, q: CurveRequest, signal?: AbortSignal) =>
    asJson<Curve>(
      await api.get<Curve | string>(`${dataPath(tenantId, thingsId)}/signals/curve`, {
        signal,
        query: { ...q, begin_time: Math.floor(q.begin_time), end_time: Math.ceil(q.end_time), width: Math.max(1, Math.round(q.width)) },
        permission: 'data-mgmt:things-data:history-aggregation',
      }),
    ),
  data: (tenantId: string, thingsId: string, r: SignalRange, page: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    api.get<SignalDataPage>(`${dataPath(tenantId, thingsId)}/signals/data`, {
      signal,
      query: { ...rangeQuery(r), ...page },
      permission: 'data-mgmt:things-data:query',
    }),
  exportCsv: (tenantId: string, thingsId: string, r: SignalRange, signal?: AbortSignal) =>
    fetchFile(`${dataPath(tenantId, thingsId)}/signals/export`, {
      query: rangeQuery(r),
      signal,
      permission: 'data-mgmt:things-data:download',
      fallbackName: 'signals.csv',
    }),
  period: (
    tenantId: string,
    thingsId: string,
    q: { signal: string; channel: number; begin_time: number; end_time: number },
    signal?: AbortSignal,
  ) =>
    api.get<SignalPeriod>(`${dataPath(tenantId, thingsId)}/signals/period`, {
      signal,
      query: { ...q, begin_time: Math.floor(q.begin_time), end_time: Math.ceil(q.end_time) },
      permission: 'data-mgmt:things-data:signal-period',
    }),
  busStats: (
    tenantId: string,
    thingsId: string,
    q: { channel?: number; begin_time: number; end_time: number; bitrate: number },
    signal?: AbortSignal,
  ) =>
    api.get<BusStats>(`${dataPath(tenantId, thingsId)}/bus-statistics`, {
      signal,
      query: { ...q, begin_time: Math.floor(q.begin_time), end_time: Math.ceil(q.end_time) },
      permission: 'data-mgmt:things-data:signal-period',
    }),
};
