import { z } from 'zod';
import {
  BusStatsQuerySchema,
  BusStatsSchema,
  CurveQuerySchema,
  CurveSchema,
  SignalDataPageSchema,
  SignalDataQuerySchema,
  SignalExportQuerySchema,
  SignalListQuerySchema,
  SignalPeriodQuerySchema,
  SignalPeriodSchema,
  SignalSeriesSchema,
} from '../schemas/signals.ts';
import { DeviceParams, defineRoute } from './define.ts';

const device = '/data-mgmt/tenants/:tenant_id/things/:things_id';

/** Decoded signals of a device: stored series, curves, history table, CSV, signal period, bus statistics. */
export const SignalsRoutes = {
  series: defineRoute({
    method: 'GET',
    path: `${device}/signals`,
    params: DeviceParams,
    query: SignalListQuerySchema,
    response: z.array(SignalSeriesSchema),
    permission: 'data-mgmt:things-data:query',
  }),
  /** At most `width` points per curve. */
  curve: defineRoute({
    method: 'GET',
    path: `${device}/signals/curve`,
    params: DeviceParams,
    query: CurveQuerySchema,
    response: CurveSchema,
    permission: 'data-mgmt:things-data:history-aggregation',
  }),
  data: defineRoute({
    method: 'GET',
    path: `${device}/signals/data`,
    params: DeviceParams,
    query: SignalDataQuerySchema,
    response: SignalDataPageSchema,
    permission: 'data-mgmt:things-data:query',
  }),
  /** A CSV file (no JSON answer). */
  exportCsv: defineRoute({
    method: 'GET',
    path: `${device}/signals/export`,
    params: DeviceParams,
    query: SignalExportQuerySchema,
    permission: 'data-mgmt:things-data:download',
  }),
  period: defineRoute({
    method: 'GET',
    path: `${device}/signals/period`,
    params: DeviceParams,
    query: SignalPeriodQuerySchema,
    response: SignalPeriodSchema,
    permission: 'data-mgmt:things-data:signal-period',
  }),
  busStats: defineRoute({
    method: 'GET',
    path: `${device}/bus-statistics`,
    params: DeviceParams,
    query: BusStatsQuerySchema,
    response: BusStatsSchema,
    permission: 'data-mgmt:things-data:signal-period',
  }),
};
