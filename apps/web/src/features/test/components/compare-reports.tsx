import { CheckCircleTwoTone, CloseCircleTwoTone } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Col, Empty, Row, Skeleton, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { compareQuery } from '../api/testmgmt.queries.ts';
import { formatMetric, ReportBody } from './report-view.tsx';
import { VerdictTag } from './run-state.tsx';

const Passed = ({ v }: { v: boolean | null }) =>
  v === null ? '--' : v ? <CheckCircleTwoTone twoToneColor="#52c41a" /> : <CloseCircleTwoTone twoToneColor="#f5222d" />;

/** Two runs' reports side by side, compared on the server first: metrics (B − A), checks, parameters. */
export function CompareReports({ tenantId, ids }: { tenantId: string; ids: [string, string] }) {
  const { t } = useTranslation();
  const cmp = useQuery(compareQuery(tenantId, ids[0], ids[1]));
  if (cmp.isPending) return <Skeleton active />;
  if (!cmp.data) return <Empty description={t('test.report.none')} />;
  const { a, b } = cmp.data;
  const colA = `A · ${a.things_name}`;
  const colB = `B · ${b.things_name}`;
  return (
    <div data-testid="report-compare">
      <Space style={{ marginBottom: 12 }}>
        <span>A</span>
        <VerdictTag verdict={cmp.data.verdicts.a} />
        <span>B</span>
        <VerdictTag verdict={cmp.data.verdicts.b} />
      </Space>
      <Typography.Title level={5}>{t('test.report.metrics')}</Typography.Title>
      <Table
        size="small"
        rowKey="name"
        pagination={false}
        data-testid="compare-metrics"
        dataSource={cmp.data.metrics}
        columns={[
          { key: 'name', title: t('test.field.name'), dataIndex: 'name' },
          { key: 'a', title: colA, render: (_, r) => formatMetric(r.a) },
          { key: 'b', title: colB, render: (_, r) => formatMetric(r.b) },
          { key: 'diff', title: t('test.report.diff'), render: (_, r) => <span data-testid="compare-diff">{formatMetric(r.diff)}</span> },
          { key: 'unit', title: t('test.report.unit'), render: (_, r) => r.unit ?? '' },
        ]}
        style={{ marginBottom: 16 }}
      />
      {cmp.data.checks.length > 0 && (
        <>
          <Typography.Title level={5}>{t('test.report.checks')}</Typography.Title>
          <Table
            size="small"
            rowKey="name"
            pagination={false}
            data-testid="compare-checks"
            dataSource={cmp.data.checks}
            columns={[
              { key: 'name', title: t('test.field.name'), dataIndex: 'name' },
              { key: 'a', title: colA, render: (_, r) => <Passed v={r.a} /> },
              { key: 'b', title: colB, render: (_, r) => <Passed v={r.b} /> },
            ]}
            style={{ marginBottom: 16 }}
          />
        </>
      )}
      {cmp.data.params.length > 0 && (
        <>
          <Typography.Title level={5}>{t('test.report.params')}</Typography.Title>
          <Table
            size="small"
            rowKey="name"
            pagination={false}
            data-testid="compare-params"
            dataSource={cmp.data.params}
            columns={[
              { key: 'name', title: t('test.field.name'), dataIndex: 'name' },
              { key: 'a', title: colA, render: (_, r) => <span className="lh-mono">{JSON.stringify(r.a)}</span> },
              { key: 'b', title: colB, render: (_, r) => <span className="lh-mono">{JSON.stringify(r.b)}</span> },
            ]}
            style={{ marginBottom: 16 }}
          />
        </>
      )}
      <Row gutter={16}>
        <Col span={12}>
          <ReportBody report={a} compact />
        </Col>
        <Col span={12}>
          <ReportBody report={b} compact />
        </Col>
      </Row>
    </div>
  );
}
