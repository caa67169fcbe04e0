import { LeftOutlined, RightOutlined, SearchOutlined, UndoOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { Button, Flex, Space, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dbcKeys } from '../../../api/dbc.queries.ts';
import { signalsApi } from '../../../api/signals.api.ts';
import { CURVE_COLORS, CurveChart } from '../../../components/charts/curve-chart.tsx';
import { curveStats, joinCurves, panRange, zoomRange } from '../../../components/charts/curve-join.ts';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { shortcutRange } from '../../../components/data-view/time-range.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { SignalSelect } from './signal-select.tsx';
import type { SignalOption } from './use-channel-signals.ts';

/** Nothing narrower than 10 ms is asked for: below that a raw curve shows every sample anyway. */
const MIN_SPAN_MS = 10;

/**
 * History curve: pick up to 10 signals and a range (the spec's shortcuts); every zoom (drag on
 * the chart, buttons) and pan asks the server again with width = the chart's pixel width, so a
 * curve never holds more points than the chart has pixels and detail appears as one zooms in.
 */
export function HistoryCurve({
  tenantId,
  thingsId,
  channel,
  options,
}: {
  tenantId: string;
  thingsId: string;
  channel: number;
  options: SignalOption[];
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [picked, setPicked] = useState<string[]>([]);
  const [range, setRange] = useState<[number, number]>(() => shortcutRange('hour', Date.now()));
  const [view, setView] = useState<[number, number] | null>(null);
  const [submitted, setSubmitted] = useState<{ signals: string[]; range: [number, number] } | null>(null);
  const [width, setWidth] = useState(0);
  const shownRange = view ?? submitted?.range ?? range;

  const curves = useQueries({
    queries: (submitted?.signals ?? []).map((signal) => ({
      queryKey: [...dbcKeys.device(tenantId, thingsId), 'curve', channel, signal, shownRange, width],
      queryFn: ({ signal: abort }: { signal: AbortSignal }) =>
        signalsApi.curve(tenantId, thingsId, { signal, channel, begin_time: shownRange[0], end_time: shownRange[1], width }, abort),
      enabled: width > 0,
      placeholderData: keepPreviousData,
    })),
  });
  const updatedAt = Math.max(0, ...curves.map((q) => q.dataUpdatedAt));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query results change with their update time.
  const chart = useMemo(() => {
    const data = curves.map((q) => q.data ?? { t: [], min: [], max: [], avg: [], bucket_ms: 0 });
    const { x, ys, bands } = joinCurves(data);
    return {
      x,
      series: (submitted?.signals ?? []).map((s, i) => ({
        label: s,
        values: ys[i],
        band: bands[i],
        color: CURVE_COLORS[i % CURVE_COLORS.length],
      })),
    };
  }, [updatedAt, submitted]);
  const loading = curves.some((q) => q.isFetching);
  const first = curves[0]?.data;
  const maxPoints = Math.max(0, ...curves.map((q) => q.data?.t.length ?? 0));

  const zoomTo = (r: [number, number]) => {
    if (r[1] - r[0] < MIN_SPAN_MS) return;
    setView([Math.round(r[0]), Math.round(r[1])]);
  };

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <SignalSelect options={options} value={picked} onChange={setPicked} testId="history-curve-signals" />
        <DateRange value={range} onChange={setRange} />
        <Button
          type="primary"
          icon={<SearchOutlined />}
          disabled={!picked.length}
          data-testid="history-curve-query"
          onClick={() => {
            setSubmitted({ signals: picked, range });
            setView(null);
          }}
        >
          {t('dbc.history.query')}
        </Button>
      </Flex>
      <Flex gap={8} wrap align="center" justify="space-between">
        <Space.Compact>
          <Tooltip title={t('dbc.history.panLeft')}>
            <Button
              icon={<LeftOutlined />}
              disabled={!submitted}
              onClick={() => zoomTo(panRange(shownRange, -0.5))}
              aria-label={t('dbc.history.panLeft')}
            />
          </Tooltip>
          <Tooltip title={t('dbc.history.zoomIn')}>
            <Button
              icon={<ZoomInOutlined />}
              disabled={!submitted}
              onClick={() => zoomTo(zoomRange(shownRange, 0.5))}
              aria-label={t('dbc.history.zoomIn')}
            />
          </Tooltip>
          <Tooltip title={t('dbc.history.zoomOut')}>
            <Button
              icon={<ZoomOutOutlined />}
              disabled={!submitted}
              onClick={() => zoomTo(zoomRange(shownRange, 2))}
              aria-label={t('dbc.history.zoomOut')}
            />
          </Tooltip>
          <Tooltip title={t('dbc.history.panRight')}>
            <Button
              icon={<RightOutlined />}
              disabled={!submitted}
              onClick={() => zoomTo(panRange(shownRange, 0.5))}
              aria-label={t('dbc.history.panRight')}
            />
          </Tooltip>
          <Tooltip title={t('dbc.history.reset')}>
            <Button
              icon={<UndoOutlined />}
              disabled={!view}
              onClick={() => setView(null)}
              aria-label={t('dbc.history.reset')}
              data-testid="history-curve-reset"
            />
          </Tooltip>
        </Space.Compact>
        <Typography.Text type="secondary" data-testid="history-curve-info">
          {submitted
            ? t('dbc.history.info', {
                from: formatDateTime(shownRange[0], 'YYYY-MM-DD HH:mm:ss.SSS'),
                to: formatDateTime(shownRange[1], 'YYYY-MM-DD HH:mm:ss.SSS'),
                level: first?.level ?? '--',
                points: maxPoints,
                width,
              })
            : t('dbc.history.dragHint')}
        </Typography.Text>
      </Flex>
      <div style={{ opacity: loading ? 0.6 : 1, transition: 'opacity .2s' }}>
        <CurveChart
          x={chart.x}
          series={chart.series}
          range={shownRange}
          onSelectRange={zoomTo}
          onWidth={setWidth}
          testId="history-curve"
          height={360}
        />
      </div>
      <Flex gap={24} wrap data-testid="history-curve-stats">
        {(submitted?.signals ?? []).map((s, i) => {
          const c = curves[i]?.data;
          const st = c ? curveStats(c) : null;
          return st ? (
            <Typography.Text key={s}>
              <span className="lh-curve__swatch" style={{ background: CURVE_COLORS[i % CURVE_COLORS.length] }} />
              {t('dbc.history.stats', {
                signal: s,
                min: formatNumber(st.min, lang),
                max: formatNumber(st.max, lang),
                avg: formatNumber(st.avg, lang, 3),
                unit: c?.unit ?? '',
              })}
            </Typography.Text>
          ) : null;
        })}
      </Flex>
    </Flex>
  );
}
