import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import type { GpsPoint } from '@loggerhead/contract/schemas/gps.ts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Row, Segmented, Select, Slider, Space, Statistic, Switch, Table, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fenceListQuery } from '../../../api/efence.api.ts';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { gpsLiveQuery, gpsTrackQuery } from '../api/gps.api.ts';
import { advance, formatDuration, positionAt, REPLAY_SPEEDS } from './replay.ts';
import { TrackMap } from './track-map.tsx';

const DAY = 86_400_000;
const NO_POINTS: GpsPoint[] = [];

/** GPS track of one device (the device page's GPS tab): history with distance, stops and replay, or the live position. */
export function GpsTrack({ tenantId, thingId }: { tenantId: string; thingId: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [mode, setMode] = useState<'history' | 'live'>('history');
  // Until a range is picked: the last day up to the moment of the query.
  const [picked, setPicked] = useState<[number, number] | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const range: [number, number] = picked ?? [now - DAY, now];
  const [asked, setAsked] = useState<[number, number] | null>(null);
  const track = useQuery(gpsTrackQuery(tenantId, thingId, mode === 'history' ? asked : null));
  const live = useQuery(gpsLiveQuery(tenantId, thingId, mode === 'live'));
  // The fences bound to the device are drawn under the track.
  // A user without the fence permission sees the track alone.
  const fences = useQuery({
    ...fenceListQuery(tenantId, { things_id: thingId, current_page: 1, page_size: 100 }),
    meta: { silent: true },
  });
  const points = mode === 'history' ? (track.data?.points ?? NO_POINTS) : (live.data?.points ?? NO_POINTS);
  const stops = mode === 'history' ? (track.data?.stops ?? []) : [];

  // Replay: a track clock moved by animation frames while playing.
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const [clock, setClock] = useState<number | null>(null);
  const [follow, setFollow] = useState(true);
  const frame = useRef<number | null>(null);
  const begin = points[0]?.ts ?? 0;
  const end = points[points.length - 1]?.ts ?? 0;

  // A new track (or live refresh) stops the replay: reset while rendering, not in an effect.
  const [shown, setShown] = useState(points);
  if (shown !== points) {
    setShown(points);
    setPlaying(false);
    setClock(null);
  }

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    const tick = (now: number) => {
      const dt = now - last;
      last = now;
      setClock((c) => {
        const next = advance(c ?? begin, dt, speed);
        if (next >= end) {
          setPlaying(false);
          return end;
        }
        return next;
      });
      frame.current = requestAnimationFrame(tick);
    };
    frame.current = requestAnimationFrame(tick);
    return () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    };
  }, [playing, speed, begin, end]);

  const marker = useMemo(() => {
    if (mode === 'live') {
      const p = points[points.length - 1];
      return p ? { lat: p.lat, lon: p.lon } : null;
    }
    return clock === null ? null : positionAt(points, clock);
  }, [mode, points, clock]);

  const latest = mode === 'live' ? points[points.length - 1] : undefined;

  return (
    <div data-testid="gps-track">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={mode}
          onChange={(v) => setMode(v as 'history' | 'live')}
          options={[
            { value: 'history', label: t('efence.gps.history') },
            { value: 'live', label: t('efence.gps.live') },
          ]}
        />
        {mode === 'history' && (
          <>
            <DateRange value={range} onChange={setPicked} />
            <Button
              type="primary"
              loading={track.isFetching}
              onClick={() => {
                const at = Date.now();
                setNow(at);
                setAsked(picked ?? [at - DAY, at]);
              }}
              data-testid="gps-query"
            >
              {t('efence.gps.query')}
            </Button>
          </>
        )}
        {mode === 'live' && <Typography.Text type="secondary">{t('efence.gps.liveHint')}</Typography.Text>}
      </Space>
      {track.data?.truncated && mode === 'history' && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('efence.gps.truncated')} />
      )}
      <Row gutter={16}>
        <Col xs={24} xl={17}>
          <TrackMap
            points={points}
            stops={stops}
            marker={marker}
            follow={follow || mode === 'live'}
            fitKey={mode === 'live' ? 'live' : String(asked)}
            fences={fences.data?.list}
          />
          {mode === 'history' && points.length > 1 && (
            <Space wrap style={{ marginTop: 8, width: '100%' }} data-testid="gps-replay">
              <Button
                icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
                onClick={() => {
                  if (!playing && (clock === null || clock >= end)) setClock(begin);
                  setPlaying(!playing);
                }}
              >
                {playing ? t('efence.gps.pause') : t('efence.gps.play')}
              </Button>
              <Select
                value={speed}
                onChange={setSpeed}
                style={{ width: 90 }}
                options={REPLAY_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
                aria-label={t('efence.gps.speed')}
              />
              <Slider
                style={{ width: 280 }}
                min={begin}
                max={end}
                value={clock ?? begin}
                onChange={(v) => setClock(v)}
                tooltip={{ formatter: (v) => formatDateTime(v ?? begin) }}
              />
              <Typography.Text>{clock === null ? '' : formatDateTime(clock)}</Typography.Text>
              <Space>
                <Switch size="small" checked={follow} onChange={setFollow} />
                {t('efence.gps.follow')}
              </Space>
            </Space>
          )}
        </Col>
        <Col xs={24} xl={7}>
          {mode === 'history' ? (
            <Card size="small" data-testid="gps-stats">
              <Space size="large" wrap>
                <Statistic
                  title={t('efence.gps.distance')}
                  value={track.data ? formatNumber(track.data.distance_m / 1000, lang, 2) : '-'}
                  suffix="km"
                />
                <Statistic title={t('efence.gps.fixes')} value={track.data ? formatNumber(track.data.total, lang) : '-'} />
                <Statistic title={t('efence.gps.stops')} value={track.data ? stops.length : '-'} />
              </Space>
              <Table
                style={{ marginTop: 12 }}
                size="small"
                rowKey="begin_time"
                pagination={false}
                scroll={{ y: 300 }}
                dataSource={stops}
                locale={{ emptyText: t('efence.gps.noStops') }}
                columns={[
                  { title: '#', key: 'i', width: 40, render: (_, __, i) => i + 1 },
                  { title: t('efence.gps.stopFrom'), dataIndex: 'begin_time', render: (v: number) => formatDateTime(v) },
                  { title: t('efence.gps.stopFor'), dataIndex: 'duration_s', render: (v: number) => formatDuration(v) },
                ]}
              />
              {asked && !track.isFetching && points.length === 0 && (
                <Typography.Text type="secondary">{t('efence.gps.empty')}</Typography.Text>
              )}
            </Card>
          ) : (
            <Card size="small" data-testid="gps-live">
              {latest ? (
                <Space direction="vertical">
                  <Typography.Text>
                    {t('efence.gps.lastFix')}: {formatDateTime(latest.ts)}
                  </Typography.Text>
                  <Typography.Text>
                    {latest.lat.toFixed(6)}, {latest.lon.toFixed(6)}
                  </Typography.Text>
                  <Typography.Text>
                    {t('efence.gps.speedKmh')}: {latest.speed === null ? '-' : formatNumber(latest.speed, lang)}
                  </Typography.Text>
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('efence.gps.noLive')}</Typography.Text>
              )}
            </Card>
          )}
        </Col>
      </Row>
    </div>
  );
}
