import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Segmented, Statistic } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CURVE_COLORS, CurveChart } from '../../../components/charts/curve-chart.tsx';
import { formatBytes, formatNumber } from '../../../lib/format.ts';
import { type FlowQuery, flowQuery } from '../api/data-usage.api.ts';

const METRICS = ['messages', 'frames', 'bytes', 'forwarded'] as const;
type Metric = (typeof METRICS)[number];

/** The tenant's flow over the range: totals, and one count per period charted. */
export function FlowPanel({ tenantId, query }: { tenantId: string; query: FlowQuery }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [metric, setMetric] = useState<Metric>('messages');
  const flow = useQuery(flowQuery(tenantId, query, true));
  const total = flow.data?.total;
  const show = (m: Metric, v: number | undefined) => (m === 'bytes' ? formatBytes(v) : formatNumber(v, lang));
  const list = flow.data?.list ?? [];
  return (
    <Card
      size="small"
      title={t('data-usage.flow.title')}
      extra={
        <Segmented
          size="small"
          value={metric}
          onChange={(v) => setMetric(v as Metric)}
          options={METRICS.map((m) => ({ value: m, label: t(`data-usage.metric.${m}`) }))}
          data-testid="data-usage-metric"
        />
      }
    >
      <Row gutter={16} style={{ marginBottom: 12 }} data-testid="data-usage-totals">
        {METRICS.map((m) => (
          <Col key={m} xs={12} md={6}>
            <Statistic title={t(`data-usage.total.${m}`)} value={show(m, total?.[m])} loading={flow.isFetching && !flow.data} />
          </Col>
        ))}
      </Row>
      {list.length === 0 && !flow.isFetching ? (
        <Empty description={t('data-usage.flow.empty')} />
      ) : (
        <CurveChart
          x={list.map((p) => p.period_start)}
          series={[{ label: t(`data-usage.metric.${metric}`), values: list.map((p) => p[metric]), color: CURVE_COLORS[0] }]}
          height={280}
          testId="data-usage-chart"
        />
      )}
    </Card>
  );
}
