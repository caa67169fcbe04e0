import type { TestReport } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useQuery } from '@tanstack/react-query';
import { Col, Row, Skeleton, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { reportQuery } from '../api/testmgmt.queries.ts';
import { formatMetric, ReportBody } from './report-view.tsx';

/** The metrics of two reports by name, with the difference B − A. */
export function metricRows(a: TestReport, b: TestReport) {
  const names = [...new Set([...a.metrics.map((m) => m.name), ...b.metrics.map((m) => m.name)])];
  return names.map((name) => {
    const va = a.metrics.find((m) => m.name === name)?.value ?? null;
    const vb = b.metrics.find((m) => m.name === name)?.value ?? null;
    return { name, a: va, b: vb, diff: va !== null && vb !== null ? vb - va : null };
  });
}

/** Two runs' reports side by side, their metrics compared first. */
export function CompareReports({ tenantId, ids }: { tenantId: string; ids: [string, string] }) {
  const { t } = useTranslation();
  const a = useQuery(reportQuery(tenantId, ids[0]));
  const b = useQuery(reportQuery(tenantId, ids[1]));
  if (!a.data || !b.data) return <Skeleton active />;
  return (
    <div data-testid="report-compare">
      <Typography.Title level={5}>{t('test.report.metrics')}</Typography.Title>
      <Table
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={metricRows(a.data, b.data)}
        columns={[
          { key: 'name', title: t('test.field.name'), dataIndex: 'name' },
          { key: 'a', title: `A · ${a.data.things_name}`, render: (_, r) => formatMetric(r.a) },
          { key: 'b', title: `B · ${b.data.things_name}`, render: (_, r) => formatMetric(r.b) },
          { key: 'diff', title: t('test.report.diff'), render: (_, r) => formatMetric(r.diff) },
        ]}
        style={{ marginBottom: 16 }}
      />
      <Row gutter={16}>
        <Col span={12}>
          <ReportBody report={a.data} compact />
        </Col>
        <Col span={12}>
          <ReportBody report={b.data} compact />
        </Col>
      </Row>
    </div>
  );
}
