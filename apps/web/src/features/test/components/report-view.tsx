import { CheckCircleTwoTone, CloseCircleTwoTone } from '@ant-design/icons';
import type { TestReport } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Empty, List, Skeleton, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CurveChart } from '../../../components/charts/curve-chart.tsx';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { testApi } from '../api/testmgmt.api.ts';
import { reportQuery } from '../api/testmgmt.queries.ts';
import { VerdictTag } from './run-state.tsx';

export function formatMetric(v: number | null): string {
  if (v === null) return '--';
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(8)));
}

/** One run's report, loaded by its id; `compact` for the side-by-side comparison. */
export function RunReport({ tenantId, runId, compact = false }: { tenantId: string; runId: string; compact?: boolean }) {
  const { t } = useTranslation();
  const report = useQuery(reportQuery(tenantId, runId));
  const exportFile = useMutation({
    mutationFn: (format: 'html' | 'csv') => testApi.exportReport(tenantId, runId, format),
    onSuccess: (f) => saveBlob(f.blob, f.name),
  });
  if (report.isPending) return <Skeleton active />;
  if (!report.data) return <Empty description={t('test.report.none')} />;
  return (
    <ReportBody
      report={report.data}
      compact={compact}
      actions={
        can('test-mgmt:run:export') && (
          <Space>
            <Button onClick={() => exportFile.mutate('html')} data-testid="report-export-html">
              {t('test.report.exportHtml')}
            </Button>
            <Button onClick={() => exportFile.mutate('csv')} data-testid="report-export-csv">
              {t('test.report.exportCsv')}
            </Button>
          </Space>
        )
      }
    />
  );
}

export function ReportBody({ report: r, compact = false, actions }: { report: TestReport; compact?: boolean; actions?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="report">
      <Space style={{ justifyContent: 'space-between', width: '100%' }} wrap>
        <Space>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {r.routine_name} · {r.things_name}
          </Typography.Title>
          <VerdictTag verdict={r.verdict} />
          {r.dry_run && <Typography.Text type="secondary">{t('test.run.dryTag')}</Typography.Text>}
        </Space>
        {actions}
      </Space>
      {r.error && (
        <Alert
          type="error"
          showIcon
          data-testid="report-error"
          title={t(`test.report.errorKind.${r.error.kind}`, { defaultValue: r.error.kind })}
          description={`${r.error.line ? `${t('test.validate.line', { line: r.error.line })} ` : ''}${r.error.message}`}
        />
      )}
      <Descriptions size="small" bordered column={compact ? 1 : 2}>
        <Descriptions.Item label={t('test.report.script')}>
          <span data-testid="report-script">
            {r.script_name} v{r.script_version}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('test.report.frames')}>{r.frames}</Descriptions.Item>
        <Descriptions.Item label={t('test.report.windows')}>
          {r.windows.map((w) => `${formatDateTime(w.from)} – ${formatDateTime(w.to)}`).join('; ') || '--'}
        </Descriptions.Item>
        <Descriptions.Item label={t('test.report.params')}>
          <span className="lh-mono" data-testid="report-params">
            {JSON.stringify(r.params)}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <div>
        <Typography.Title level={5}>{t('test.report.metrics')}</Typography.Title>
        <Table
          size="small"
          pagination={false}
          rowKey="name"
          data-testid="report-metrics"
          dataSource={r.metrics}
          columns={[
            { key: 'name', title: t('test.field.name'), dataIndex: 'name' },
            {
              key: 'value',
              title: t('test.report.value'),
              render: (_, m) => <span data-testid="metric-value">{formatMetric(m.value)}</span>,
            },
            { key: 'unit', title: t('test.report.unit'), render: (_, m) => m.unit ?? '' },
          ]}
        />
      </div>
      {r.checks.length > 0 && (
        <div>
          <Typography.Title level={5}>{t('test.report.checks')}</Typography.Title>
          <List
            size="small"
            bordered
            data-testid="report-checks"
            dataSource={r.checks}
            renderItem={(c) => (
              <List.Item data-testid="report-check" data-passed={c.passed}>
                <Space>
                  {c.passed ? <CheckCircleTwoTone twoToneColor="#52c41a" /> : <CloseCircleTwoTone twoToneColor="#f5222d" />}
                  {c.name}
                </Space>
              </List.Item>
            )}
          />
        </div>
      )}
      {r.tables.map((tb) => (
        <div key={tb.name}>
          <Typography.Title level={5}>{tb.name}</Typography.Title>
          <Table
            size="small"
            pagination={tb.rows.length > 20 ? { pageSize: 20 } : false}
            rowKey={(_, i) => String(i)}
            dataSource={tb.rows.map((row) => Object.fromEntries(row.map((v, i) => [String(i), v])))}
            columns={tb.columns.map((c, i) => ({
              key: String(i),
              title: c,
              render: (_: unknown, row: Record<string, unknown>) => String(row[String(i)] ?? ''),
            }))}
            scroll={{ x: true }}
          />
        </div>
      ))}
      {r.charts.map((c) => (
        <div key={`${c.channel}.${c.message}.${c.signal}`} data-testid="report-chart">
          <Typography.Title level={5}>
            {c.message ? `${c.message}.` : ''}
            {c.signal}
            {c.unit ? ` (${c.unit})` : ''}
          </Typography.Title>
          <CurveChart x={c.times} series={[{ label: c.signal, values: c.values }]} height={compact ? 200 : 260} />
        </div>
      ))}
      <div>
        <Typography.Title level={5}>{t('test.report.log')}</Typography.Title>
        <pre
          className="lh-mono"
          data-testid="report-log"
          style={{ maxHeight: 240, overflow: 'auto', background: 'rgba(128,128,128,.08)', padding: 8, margin: 0 }}
        >
          {r.log || t('test.report.noLog')}
        </pre>
      </div>
    </Space>
  );
}
