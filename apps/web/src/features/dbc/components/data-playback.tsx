import { CaretRightOutlined, CloudDownloadOutlined, PauseOutlined, StepBackwardOutlined } from '@ant-design/icons';
import type { SignalRow } from '@loggerhead/contract/schemas/signals.ts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Select, Slider, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signalsApi } from '../../../api/signals.api.ts';
import { CURVE_COLORS, CurveChart } from '../../../components/charts/curve-chart.tsx';
import { joinCurves } from '../../../components/charts/curve-join.ts';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { MAX_PAGED_ENTRIES } from '../../../components/data-view/paging.ts';
import { shortcutRange } from '../../../components/data-view/time-range.ts';
import { VirtualList } from '../../../components/data-view/virtual-list.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { signalRef } from '../lib/names.ts';
import { lastIndexAtOrBefore, PLAYBACK_SPEEDS, playbackPosition } from '../lib/playback.ts';
import { sampleTime } from './history-data.tsx';
import { SignalSelect } from './signal-select.tsx';
import type { SignalOption } from './use-channel-signals.ts';

interface Loaded {
  signals: string[];
  rows: SignalRow[];
  times: number[];
  total: number;
  begin: number;
  end: number;
}

/**
 * Data playback: the decoded rows of a range (at most 10000, the table limit) are fetched once and
 * replayed in the browser at 0.5×-16×, with pause and seek; the trace and the curves' marker move
 * together from one clock.
 */
export function DataPlayback({
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
  const [data, setData] = useState<Loaded | null>(null);
  const [position, setPosition] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const anchor = useRef({ wall: 0, position: 0 });

  const load = useMutation({
    mutationFn: async () => {
      const page = await signalsApi.data(
        tenantId,
        thingsId,
        { signals: picked, channel, begin_time: range[0], end_time: range[1] },
        { current_page: 1, page_size: MAX_PAGED_ENTRIES },
      );
      const rows = [...page.list].sort((a, b) => a.time - b.time);
      return { rows, total: page.total };
    },
    onSuccess: ({ rows, total }) => {
      const begin = rows[0]?.time ?? range[0];
      const end = rows.at(-1)?.time ?? range[1];
      setData({ signals: picked, rows, times: rows.map((r) => r.time), total, begin, end });
      setPlaying(false);
      setPosition(begin);
    },
  });

  const chart = useMemo(() => {
    if (!data) return { x: [], series: [] };
    const per = data.signals.map((s) => {
      const mine = data.rows.filter((r) => signalRef(r.message, r.signal) === s);
      const v = mine.map((r) => r.value);
      return { t: mine.map((r) => r.time), min: v, max: v, avg: v, bucket_ms: 0 };
    });
    const { x, ys } = joinCurves(per);
    return { x, series: data.signals.map((s, i) => ({ label: s, values: ys[i], color: CURVE_COLORS[i % CURVE_COLORS.length] })), per };
  }, [data]);

  // One clock: data time = anchor + wall time elapsed × speed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the clock re-anchors only when play state, speed or data change; `position` is read at that moment.
  useEffect(() => {
    if (!playing || !data) return;
    anchor.current = { wall: performance.now(), position };
    let raf = 0;
    const step = () => {
      const p = playbackPosition(anchor.current, performance.now(), speed, data.end);
      setPosition(p);
      if (p >= data.end) setPlaying(false);
      else raf = requestAnimationFrame(step);
    };
    raf = requestAnimationFrame(step);
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, data]);

  const chartRange = useMemo<[number, number] | undefined>(
    () => (data ? [data.begin, Math.max(data.end, data.begin + 1)] : undefined),
    [data],
  );

  const seek = (p: number) => {
    setPosition(p);
    anchor.current = { wall: performance.now(), position: p };
  };

  const shownRows = data ? lastIndexAtOrBefore(data.times, position) + 1 : 0;
  const current =
    data && chart.per
      ? data.signals.map((s, i) => {
          const k = lastIndexAtOrBefore(chart.per[i].t, position);
          return { signal: s, value: k >= 0 ? chart.per[i].avg[k] : null };
        })
      : [];

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <SignalSelect options={options} value={picked} onChange={setPicked} testId="playback-signals" />
        <DateRange value={range} onChange={setRange} />
        <Button
          type="primary"
          icon={<CloudDownloadOutlined />}
          disabled={!picked.length}
          loading={load.isPending}
          onClick={() => load.mutate()}
          data-testid="playback-load"
        >
          {t('dbc.playback.load')}
        </Button>
      </Flex>
      {data && data.total > data.rows.length && (
        <Alert
          type="warning"
          showIcon
          message={t('dbc.playback.truncated', { shown: formatNumber(data.rows.length, lang), total: formatNumber(data.total, lang) })}
        />
      )}
      <Flex gap={8} wrap align="center">
        <Button
          type="primary"
          icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
          disabled={!data?.rows.length}
          onClick={() => {
            if (!playing && data && position >= data.end) seek(data.begin);
            setPlaying((p) => !p);
          }}
          data-testid="playback-play"
        >
          {playing ? t('dbc.playback.pause') : t('dbc.playback.play')}
        </Button>
        <Button
          icon={<StepBackwardOutlined />}
          disabled={!data}
          onClick={() => data && seek(data.begin)}
          aria-label={t('dbc.playback.restart')}
        />
        <Select
          value={speed}
          onChange={setSpeed}
          style={{ width: 100 }}
          options={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
          aria-label={t('dbc.playback.speed')}
          data-testid="playback-speed"
        />
        <Slider
          style={{ flex: 1, minWidth: 240 }}
          disabled={!data?.rows.length}
          min={data?.begin ?? 0}
          max={data?.end ?? 1}
          step={1}
          value={position}
          tooltip={{ formatter: (v) => (v === undefined ? '' : sampleTime(v)) }}
          onChange={(v) => seek(v)}
        />
        <Typography.Text className="lh-mono" data-testid="playback-position">
          {data ? sampleTime(position) : '--'}
        </Typography.Text>
      </Flex>
      <CurveChart
        x={chart.x}
        series={chart.series}
        range={chartRange}
        marker={data ? position : null}
        testId="playback-curve"
        height={280}
      />
      <Flex gap={12} wrap>
        {current.map((c, i) => (
          <Card size="small" key={c.signal} style={{ minWidth: 180, borderLeft: `3px solid ${CURVE_COLORS[i % CURVE_COLORS.length]}` }}>
            <Typography.Text type="secondary">{c.signal}</Typography.Text>
            <div className="lh-mono" style={{ fontSize: 18 }} data-testid="playback-value">
              {formatNumber(c.value, lang)}
            </div>
          </Card>
        ))}
      </Flex>
      <Typography.Text type="secondary">
        {t('dbc.playback.trace', { shown: formatNumber(shownRows, lang), total: formatNumber(data?.rows.length ?? 0, lang) })}
      </Typography.Text>
      <VirtualList
        count={shownRows}
        height={240}
        rowHeight={28}
        follow
        testId="playback-trace"
        renderRow={(i) => {
          const r = (data as Loaded).rows[i];
          return (
            <Flex gap={16} className="lh-mono" style={{ padding: '4px 8px', fontSize: 12 }}>
              <span style={{ width: 64, opacity: 0.6 }}>{i + 1}</span>
              <span style={{ width: 240 }}>{sampleTime(r.time)}</span>
              <span style={{ flex: 1 }}>{signalRef(r.message, r.signal)}</span>
              <span style={{ width: 160, textAlign: 'right' }}>
                {formatNumber(r.value, lang)} {r.unit}
              </span>
            </Flex>
          );
        }}
      />
    </Flex>
  );
}
