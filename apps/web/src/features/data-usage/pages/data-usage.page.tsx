import type { TrafficGranularity } from '@loggerhead/contract/schemas/traffic.ts';
import { Card, Col, Row, Segmented, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { FlowPanel } from '../components/flow-panel.tsx';
import { RankingTable } from '../components/ranking-table.tsx';
import { UsagePanel } from '../components/usage-panel.tsx';

/** The range widened to whole periods: the server counts an hour (or day) when it starts within the range. */
function whole(range: [number, number], g: TrafficGranularity): [number, number] {
  const unit = g === 'day' ? 'day' : 'hour';
  const begin = dayjs(range[0]).startOf(unit);
  const endAt = dayjs(range[1]);
  const end = endAt.isSame(endAt.startOf(unit)) ? endAt : endAt.startOf(unit).add(1, unit);
  return [begin.valueOf(), end.valueOf()];
}

/** Data usage (spec §7 /data-mgmt: tenant flow, ranking, usage): traffic over time, devices by traffic, storage against the quota. */
export default function DataUsagePage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [range, setRange] = useState<[number, number]>(() => [Date.now() - 86_400_000, Date.now()]);
  const [granularity, setGranularity] = useState<TrafficGranularity>('hour');
  const span = useMemo(() => whole(range, granularity), [range, granularity]);
  const flowQuery = {
    begin_time: span[0],
    end_time: span[1],
    granularity,
    utc_offset: -new Date(span[0]).getTimezoneOffset(),
  };
  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('data-usage.title')}
        </Typography.Title>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <span>{t('data-usage.range')}</span>
        <DateRange value={range} onChange={setRange} />
        <Segmented
          value={granularity}
          onChange={(v) => setGranularity(v as TrafficGranularity)}
          options={[
            { value: 'hour', label: t('data-usage.granularity.hour') },
            { value: 'day', label: t('data-usage.granularity.day') },
          ]}
          data-testid="data-usage-granularity"
        />
      </Space>
      {tenantId && (
        <Row gutter={[16, 16]}>
          {can('data-mgmt:tenant-flow:query') && (
            <Col span={24}>
              <FlowPanel tenantId={tenantId} query={flowQuery} />
            </Col>
          )}
          {can('data-mgmt:tenant-ranking:query') && (
            <Col xs={24} xl={15}>
              <RankingTable tenantId={tenantId} range={span} />
            </Col>
          )}
          <Col xs={24} xl={9}>
            <UsagePanel tenantId={tenantId} />
          </Col>
        </Row>
      )}
    </Card>
  );
}
