import { SearchOutlined } from '@ant-design/icons';
import type { BusIdStats, BusStats, SignalPeriod } from '@loggerhead/contract/schemas/signals.ts';
import { STATS_MAX_ROWS } from '@loggerhead/contract/schemas/signals.ts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Flex, Progress, Select, Statistic, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signalsApi } from '../../../api/signals.api.ts';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { shortcutRange } from '../../../components/data-view/time-range.ts';
import { EMPTY, formatNumber } from '../../../lib/format.ts';
import { canIdText } from './dbc-messages-view.tsx';
import { SignalSelect } from './signal-select.tsx';
import type { SignalOption } from './use-channel-signals.ts';

const BITRATES = [125_000, 250_000, 500_000, 1_000_000] as const;
/** Milliseconds to the microsecond, without trailing zeros. */
const ms = (v: number | null, lang: 'zh' | 'en') => (v === null ? EMPTY : `${formatNumber(Math.round(v * 1000) / 1000, lang)} ms`);

/** High-level functions (spec §2): bus statistics per id and bus load, and signal period detection, from the server. */
export function HighLevel({
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
  const [range, setRange] = useState<[number, number]>(() => shortcutRange('hour', Date.now()));
  const [bitrate, setBitrate] = useState<number>(500_000);
  const [signal, setSignal] = useState<string[]>([]);
  const stats = useMutation({
    mutationFn: () => signalsApi.busStats(tenantId, thingsId, { channel, begin_time: range[0], end_time: range[1], bitrate }),
  });
  const period = useMutation({
    mutationFn: () => signalsApi.period(tenantId, thingsId, { signal: signal[0], channel, begin_time: range[0], end_time: range[1] }),
  });

  return (
    <Flex vertical gap={16}>
      <Flex gap={8} wrap align="center">
        <DateRange value={range} onChange={setRange} />
      </Flex>
      <Card
        size="small"
        title={t('dbc.high.busTitle', { channel: `CAN${channel}` })}
        extra={
          <Flex gap={8} align="center">
            <Select
              value={bitrate}
              onChange={setBitrate}
              style={{ width: 130 }}
              aria-label={t('dbc.high.bitrate')}
              options={BITRATES.map((b) => ({ value: b, label: `${b / 1000} kbit/s` }))}
            />
            <Button
              type="primary"
              icon={<SearchOutlined />}
              loading={stats.isPending}
              onClick={() => stats.mutate()}
              data-testid="bus-stats-query"
            >
              {t('dbc.high.analyse')}
            </Button>
          </Flex>
        }
      >
        {stats.data ? (
          <BusStatsView stats={stats.data} lang={lang} />
        ) : (
          <Alert type="info" message={t('dbc.high.busHint', { max: formatNumber(STATS_MAX_ROWS, lang) })} />
        )}
      </Card>
      <Card
        size="small"
        title={t('dbc.high.periodTitle')}
        extra={
          <Flex gap={8} align="center">
            <SignalSelect options={options} value={signal} onChange={setSignal} multiple={false} testId="period-signal" />
            <Button
              type="primary"
              icon={<SearchOutlined />}
              disabled={!signal.length}
              loading={period.isPending}
              onClick={() => period.mutate()}
              data-testid="period-query"
            >
              {t('dbc.high.detect')}
            </Button>
          </Flex>
        }
      >
        {period.data ? (
          <PeriodView p={period.data} lang={lang} />
        ) : (
          <Alert type="info" message={t('dbc.high.periodHint', { max: formatNumber(STATS_MAX_ROWS, lang) })} />
        )}
      </Card>
    </Flex>
  );
}

function BusStatsView({ stats, lang }: { stats: BusStats; lang: 'zh' | 'en' }) {
  const { t } = useTranslation();
  const load = stats.bus_load;
  return (
    <Flex vertical gap={12} data-testid="bus-stats">
      <Flex gap={32} wrap align="center">
        <Statistic title={t('dbc.high.frames')} value={formatNumber(stats.frames, lang)} />
        <Statistic title={t('dbc.high.ids')} value={stats.ids.length} />
        <Statistic title={t('dbc.high.span')} value={`${formatNumber(stats.span_ms / 1000, lang, 3)} s`} />
        <div>
          <div style={{ opacity: 0.65, marginBottom: 4 }}>{t('dbc.high.load')}</div>
          {load === null ? (
            EMPTY
          ) : (
            <Progress type="dashboard" size={80} percent={Number(load.toFixed(2))} status={load > 80 ? 'exception' : 'normal'} />
          )}
        </div>
      </Flex>
      {stats.truncated && <Alert type="warning" showIcon message={t('dbc.high.truncated', { max: formatNumber(STATS_MAX_ROWS, lang) })} />}
      <Table<BusIdStats>
        size="small"
        rowKey={(r) => `${r.channel}-${r.ext ? 'x' : 's'}${r.id}`}
        dataSource={stats.ids}
        pagination={{ pageSize: 10, showSizeChanger: true, pageSizeOptions: [10, 20, 30, 40, 50] }}
        columns={[
          {
            key: 'id',
            title: t('dbc.msg.id'),
            render: (_v, r) => <span className="lh-mono">{canIdText(r.id, r.ext)}</span>,
            sorter: (a, b) => a.id - b.id,
          },
          { key: 'message', title: t('dbc.data.message'), render: (_v, r) => r.message ?? EMPTY },
          { key: 'dlc', title: 'DLC', dataIndex: 'dlc', align: 'right' },
          {
            key: 'count',
            title: t('dbc.high.count'),
            dataIndex: 'count',
            align: 'right',
            sorter: (a, b) => a.count - b.count,
            defaultSortOrder: 'descend',
          },
          {
            key: 'cycle',
            title: t('dbc.high.cycle'),
            align: 'right',
            render: (_v, r) => ms(r.cycle_ms, lang),
            sorter: (a, b) => (a.cycle_ms ?? 0) - (b.cycle_ms ?? 0),
          },
          { key: 'jitter', title: t('dbc.high.jitter'), align: 'right', render: (_v, r) => ms(r.jitter_ms, lang) },
          { key: 'min', title: t('dbc.high.min'), align: 'right', render: (_v, r) => ms(r.min_ms, lang) },
          { key: 'max', title: t('dbc.high.max'), align: 'right', render: (_v, r) => ms(r.max_ms, lang) },
        ]}
      />
    </Flex>
  );
}

function PeriodView({ p, lang }: { p: SignalPeriod; lang: 'zh' | 'en' }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={8} data-testid="period-result">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 3 }}
        items={[
          { key: 's', label: t('dbc.data.signal'), children: `${p.message}.${p.signal}` },
          { key: 'n', label: t('dbc.high.samples'), children: formatNumber(p.samples, lang) },
          { key: 'p', label: t('dbc.high.period'), children: <strong>{ms(p.period_ms, lang)}</strong> },
          { key: 'm', label: t('dbc.high.mean'), children: ms(p.mean_ms, lang) },
          { key: 'j', label: t('dbc.high.jitter'), children: ms(p.jitter_ms, lang) },
          { key: 'r', label: t('dbc.high.minMax'), children: `${ms(p.min_ms, lang)} / ${ms(p.max_ms, lang)}` },
        ]}
      />
      {p.truncated && <Alert type="warning" showIcon message={t('dbc.high.truncated', { max: formatNumber(STATS_MAX_ROWS, lang) })} />}
    </Flex>
  );
}
