import type { StatisticsTask } from '@loggerhead/contract/schemas/statistics.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Empty, Segmented, Space, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { CURVE_COLORS, CurveChart } from '../../../components/charts/curve-chart.tsx';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { statisticsApi, statisticsKeys } from '../api/statistics.api.ts';

const DAY = 86_400_000;

function defaultRange(task: StatisticsTask): [number, number] {
  const end = task.computed_until;
  return [end - (task.period === 'day' ? 30 * DAY : 2 * DAY), end];
}

/** A task's results over a time range: charted per device and signal, listed, exported; computed again on demand. */
export function StatisticsResultsDrawer({
  tenantId,
  task,
  onClose,
}: {
  tenantId: string;
  task: StatisticsTask | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [range, setRange] = useState<[number, number] | null>(null);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const r = range ?? (task ? defaultRange(task) : [0, 0]);
  const q = { task_id: task?.id ?? '', begin_time: r[0], end_time: r[1], current_page: 1, page_size: 5000 };
  const results = useQuery({
    queryKey: statisticsKeys.results(tenantId, q),
    queryFn: ({ signal }) => statisticsApi.results(tenantId, q, signal),
    enabled: Boolean(task),
  });
  const devices = useQuery({
    queryKey: statisticsKeys.devices(tenantId),
    queryFn: ({ signal }) => statisticsApi.devices(tenantId, undefined, signal),
    enabled: Boolean(task),
  });
  const names = useMemo(() => new Map((devices.data?.list ?? []).map((d) => [d.id, d.name])), [devices.data]);
  const run = useMutation({
    mutationFn: () => statisticsApi.run(tenantId, task?.id ?? '', r),
    meta: { silent: true },
    onSuccess: (res) => {
      void message.success(t('statistics.results.runDone', res));
      return qc.invalidateQueries({ queryKey: statisticsKeys.all });
    },
    onError: (e) => void message.error(errorText(e, t, (k) => i18n.exists(k))),
  });
  const exportCsv = useMutation({
    mutationFn: () => statisticsApi.csv(tenantId, { task_id: task?.id ?? '', begin_time: r[0], end_time: r[1] }),
    meta: { silent: true },
    onSuccess: (f) => saveBlob(f.blob, f.name),
    onError: (e) => void message.error(errorText(e, t, (k) => i18n.exists(k))),
  });

  const rows = results.data?.list ?? [];
  const chart = useMemo(() => {
    const x = [...new Set(rows.map((row) => row.window_start))].sort((a, b) => a - b);
    const at = new Map(x.map((v, i) => [v, i]));
    const series = new Map<string, (number | null)[]>();
    for (const row of rows) {
      const label = `${names.get(row.things_id) ?? row.things_id.slice(0, 8)} ${row.signal}${row.unit ? ` (${row.unit})` : ''}`;
      const values = series.get(label) ?? Array<number | null>(x.length).fill(null);
      values[at.get(row.window_start) ?? 0] = row.value;
      series.set(label, values);
    }
    return {
      x,
      series: [...series.entries()].slice(0, 10).map(([label, values], i) => ({ label, values, color: CURVE_COLORS[i] })),
    };
  }, [rows, names]);

  return (
    <Drawer
      open={Boolean(task)}
      onClose={onClose}
      width={920}
      title={t('statistics.results.title', { name: task?.name ?? '' })}
      destroyOnHidden
      extra={
        <Space>
          {can('data-mgmt:statistics-task:execute') && (
            <Button onClick={() => run.mutate()} loading={run.isPending} data-testid="statistics-run">
              {t('statistics.action.run')}
            </Button>
          )}
          {can('data-mgmt:statistics-result:export') && (
            <Button onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
              {t('statistics.action.export')}
            </Button>
          )}
        </Space>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <span>{t('statistics.results.range')}</span>
        <DateRange value={r} onChange={setRange} />
        <Segmented
          value={view}
          onChange={(v) => setView(v as 'chart' | 'table')}
          options={[
            { value: 'chart', label: t('statistics.results.chart') },
            { value: 'table', label: t('statistics.results.table') },
          ]}
        />
      </Space>
      {!rows.length && !results.isFetching ? (
        <Empty description={t('statistics.results.empty')} />
      ) : view === 'chart' ? (
        <CurveChart x={chart.x} series={chart.series} height={360} testId="statistics-chart" />
      ) : (
        <Table
          size="small"
          rowKey={(row) => `${row.things_id}|${row.signal}|${row.window_start}`}
          loading={results.isFetching}
          dataSource={rows}
          pagination={{ pageSize: 50 }}
          data-testid="statistics-results"
          columns={[
            { key: 'device', title: t('statistics.col.device'), render: (_v, row) => names.get(row.things_id) ?? row.things_id },
            { key: 'signal', title: t('statistics.col.signal'), dataIndex: 'signal' },
            { key: 'window', title: t('statistics.col.window'), render: (_v, row) => formatDateTime(row.window_start) },
            {
              key: 'value',
              title: t('statistics.col.value'),
              render: (_v, row) => (row.value === null ? EMPTY : `${Number(row.value.toFixed(4))}${row.unit ? ` ${row.unit}` : ''}`),
            },
            { key: 'samples', title: t('statistics.col.samples'), dataIndex: 'samples' },
          ]}
        />
      )}
    </Drawer>
  );
}
