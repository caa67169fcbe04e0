import { PANEL_WINDOW_MS, type Panel } from '@loggerhead/contract/schemas/dashboard.ts';
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { signalsApi } from '../../../api/signals.api.ts';
import { CURVE_COLORS, CurveChart } from '../../../components/charts/curve-chart.tsx';
import { joinCurves } from '../../../components/charts/curve-join.ts';
import { dashboardKeys } from '../api/dashboard.queries.ts';
import { refreshMs } from '../lib/panels.ts';

/**
 * The panel's signals over its window up to now, through the history-curve API (min/max per
 * pixel column, so a 7-day window costs no more than 10 minutes). Asked again every
 * `refreshMs(window)` while the page is open.
 */
export function LinePanel({ tenantId, panel }: { tenantId: string; panel: Panel }) {
  const [width, setWidth] = useState(0);
  const span = PANEL_WINDOW_MS[panel.x_axis_type];
  const refs = panel.signals.map((s) => `${s.message}.${s.signal}`);
  const curves = useQueries({
    queries: refs.map((signal) => ({
      queryKey: [...dashboardKeys.curve(tenantId, panel.id), panel.updated_at, signal, width],
      queryFn: ({ signal: abort }: { signal: AbortSignal }) => {
        const end = Date.now();
        return signalsApi.curve(
          tenantId,
          panel.things_id,
          { signal, channel: panel.channel, begin_time: end - span, end_time: end, width },
          abort,
        );
      },
      enabled: width > 0,
      placeholderData: keepPreviousData,
      refetchInterval: refreshMs(panel.x_axis_type),
    })),
  });
  const updatedAt = Math.max(0, ...curves.map((q) => q.dataUpdatedAt));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query results change with their update time.
  const chart = useMemo(() => {
    const data = curves.map((q) => q.data ?? { t: [], min: [], max: [], avg: [], bucket_ms: 0 });
    const { x, ys, bands } = joinCurves(data);
    const first = curves[0]?.data;
    const range: [number, number] | undefined = first ? [first.begin_time, first.end_time] : undefined;
    return {
      x,
      range,
      series: refs.map((s, i) => ({
        label: curves[i]?.data?.unit ? `${s} (${curves[i].data?.unit})` : s,
        values: ys[i],
        band: bands[i],
        color: CURVE_COLORS[i % CURVE_COLORS.length],
      })),
    };
  }, [updatedAt, refs.join(',')]);
  return <CurveChart x={chart.x} series={chart.series} range={chart.range} onWidth={setWidth} height={220} testId="panel-curve" />;
}
