import { PlusOutlined } from '@ant-design/icons';
import type { StatisticsTask } from '@loggerhead/contract/schemas/statistics.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { statisticsApi, statisticsKeys, statisticsListQuery } from '../api/statistics.api.ts';
import { StatisticsResultsDrawer } from '../components/statistics-results-drawer.tsx';
import { StatisticsTaskDialog } from '../components/statistics-task-dialog.tsx';

/** The statistics history: every computation of the tenant's tasks, scheduled or asked for. */
function HistoryTab({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const q = { current_page: paging.page, page_size: paging.size };
  const history = useQuery({
    queryKey: statisticsKeys.history(tenantId, q),
    queryFn: ({ signal }) => statisticsApi.history(tenantId, q, signal),
  });
  return (
    <>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        loading={history.isFetching && !history.data}
        dataSource={history.data?.list ?? []}
        data-testid="statistics-history"
        columns={[
          { key: 'task', title: t('statistics.col.task'), dataIndex: 'task_name' },
          { key: 'trigger', title: t('statistics.col.trigger'), render: (_v, r) => t(`statistics.trigger.${r.trigger}`) },
          {
            key: 'range',
            title: t('statistics.col.range'),
            render: (_v, r) => `${formatDateTime(r.range_start)} ~ ${formatDateTime(r.range_end)}`,
          },
          { key: 'windows', title: t('statistics.col.windows'), dataIndex: 'windows' },
          { key: 'results', title: t('statistics.col.results'), dataIndex: 'results' },
          {
            key: 'error',
            title: t('statistics.col.error'),
            render: (_v, r) => (r.error ? <Typography.Text type="danger">{r.error}</Typography.Text> : EMPTY),
          },
          { key: 'started', title: t('statistics.col.startedAt'), render: (_v, r) => formatDateTime(r.started_at) },
        ]}
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={history.data?.total ?? 0} onChange={setPaging} />
      </div>
    </>
  );
}

/** Statistics (spec §7 /data-mgmt): the tenant's tasks, their results (chart, table, CSV) and the history of runs. */
export default function StatisticsManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [editing, setEditing] = useState<StatisticsTask | 'new' | null>(null);
  const [shown, setShown] = useState<StatisticsTask | null>(null);
  const list = useQuery(statisticsListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));

  const status = useMutation({
    mutationFn: ({ id, to }: { id: string; to: 0 | 1 }) => statisticsApi.setStatus(tenantId as string, id, to),
    onSuccess: () => qc.invalidateQueries({ queryKey: statisticsKeys.all }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => statisticsApi.remove(tenantId as string, id),
    onSuccess: () => {
      void message.success(t('statistics.delete.done'));
      return qc.invalidateQueries({ queryKey: statisticsKeys.all });
    },
  });

  const columns: ChooserColumn<StatisticsTask>[] = [
    { key: 'name', title: t('statistics.col.name'), render: (r) => <Typography.Text strong>{r.name}</Typography.Text> },
    {
      key: 'method',
      title: t('statistics.col.method'),
      render: (r) =>
        r.method === 'percentile' ? `${t('statistics.method.percentile')} P${r.params.percentile}` : t(`statistics.method.${r.method}`),
    },
    {
      key: 'signals',
      title: t('statistics.col.signals'),
      ellipsis: true,
      render: (r) => (r.signals.length ? r.signals.map((s) => `${s.message}.${s.signal}`).join(', ') : 'GPS'),
    },
    { key: 'devices', title: t('statistics.col.devices'), render: (r) => r.things_ids.length },
    { key: 'period', title: t('statistics.col.period'), render: (r) => t(`statistics.period.${r.period}`) },
    {
      key: 'status',
      title: t('statistics.col.status'),
      render: (r) => (
        <Tag color={r.status === 1 ? 'green' : 'default'} data-testid="statistics-status">
          {t(r.status === 1 ? 'statistics.status.enabled' : 'statistics.status.disabled')}
        </Tag>
      ),
    },
    { key: 'computed_until', title: t('statistics.col.computedUntil'), render: (r) => formatDateTime(r.computed_until) },
    {
      key: 'last_run',
      title: t('statistics.col.lastRun'),
      render: (r) =>
        r.last_error ? (
          <Tooltip title={r.last_error}>
            <Typography.Text type="danger">{formatDateTime(r.last_run_at ?? 0)}</Typography.Text>
          </Tooltip>
        ) : r.last_run_at ? (
          formatDateTime(r.last_run_at)
        ) : (
          EMPTY
        ),
    },
    {
      key: 'actions',
      title: t('statistics.col.actions'),
      always: true,
      fixed: 'right',
      render: (r) => (
        <Space size={0}>
          {can('data-mgmt:statistics-result:query') && (
            <Button type="link" size="small" onClick={() => setShown(r)} data-testid="statistics-results-open">
              {t('statistics.action.results')}
            </Button>
          )}
          {can('data-mgmt:statistics-task:update') && (
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('statistics.action.edit')}
            </Button>
          )}
          {can('data-mgmt:statistics-task:updateStatus') && (
            <Button type="link" size="small" onClick={() => status.mutate({ id: r.id, to: r.status === 1 ? 0 : 1 })}>
              {t(r.status === 1 ? 'statistics.action.disable' : 'statistics.action.enable')}
            </Button>
          )}
          {can('data-mgmt:statistics-task:delete') && (
            <ConfirmDeleteButton
              label={t('statistics.action.delete')}
              title={t('statistics.delete.title')}
              content={t('statistics.delete.confirm', { name: r.name })}
              onConfirm={() => remove.mutateAsync(r.id)}
            />
          )}
        </Space>
      ),
    },
  ];

  const tasks = (
    <>
      <ColumnChooserTable<StatisticsTask>
        configKey="statistics.manager.table"
        testId="statistics-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(r) => r.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('statistics.list.search')}
            style={{ width: 280 }}
            onSearch={(v) => {
              setKeyword(v.trim() || undefined);
              setPaging((p) => firstPage(p.size));
            }}
          />
        }
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
    </>
  );

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('statistics.manager.title')}
        </Typography.Title>
      }
      extra={
        can('data-mgmt:statistics-task:create') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="add-statistics-task">
            {t('statistics.list.add')}
          </Button>
        )
      }
    >
      <Tabs
        items={[
          { key: 'tasks', label: t('statistics.tab.tasks'), children: tasks },
          { key: 'history', label: t('statistics.tab.history'), children: tenantId ? <HistoryTab tenantId={tenantId} /> : null },
        ]}
      />
      {tenantId && (
        <StatisticsTaskDialog
          tenantId={tenantId}
          record={editing === 'new' ? null : editing}
          open={editing !== null}
          onClose={() => setEditing(null)}
        />
      )}
      {tenantId && <StatisticsResultsDrawer tenantId={tenantId} task={shown} onClose={() => setShown(null)} />}
    </Card>
  );
}
