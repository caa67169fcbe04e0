import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Job, JobLog } from '@loggerhead/contract/schemas/jobs.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Select, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { jobApi, jobKeys } from '../api/job.api.ts';
import { JobDialog } from '../components/job-dialog.tsx';

const STATE_COLOURS: Record<JobLog['state'], string> = { queued: 'default', running: 'blue', succeeded: 'green', failed: 'red' };
const WEEK = 7 * 24 * 3600 * 1000;

function JobList({ tenantId, onLogs }: { tenantId: string; onLogs: (jobId: string) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ job: Job | null } | null>(null);
  const jobs = useQuery({
    queryKey: jobKeys.list(tenantId, page.current, page.size, name),
    queryFn: ({ signal }) => jobApi.list(tenantId, { current_page: page.current, page_size: page.size, ...(name ? { name } : {}) }, signal),
    placeholderData: keepPreviousData,
    // Next-run times move on by themselves.
    refetchInterval: 60_000,
  });
  const status = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) => jobApi.setStatus(tenantId, id, on ? 1 : 0),
    onSuccess: () => void qc.invalidateQueries({ queryKey: jobKeys.all }),
  });
  const actionName = (id: string) => t(`job.actionName.${id}`, { defaultValue: id });
  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          placeholder={t('job.list.search')}
          style={{ width: 240 }}
          onSearch={(v) => {
            setName(v.trim());
            setPage((p) => ({ ...p, current: 1 }));
          }}
        />
        {mayCall(Routes.jobs.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ job: null })} data-testid="job-new">
            {t('job.list.new')}
          </Button>
        )}
      </Space>
      <Table<Job>
        rowKey="id"
        size="middle"
        loading={jobs.isFetching}
        dataSource={jobs.data?.list ?? []}
        locale={{ emptyText: t('job.list.empty') }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: jobs.data?.total ?? 0,
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          { title: t('job.col.name'), dataIndex: 'name' },
          {
            title: t('job.col.schedule'),
            render: (_v, j) =>
              j.execution_method === 1 ? (
                `${t('job.method.1')}: ${formatDateTime(j.start_time)}`
              ) : (
                <Typography.Text code>{j.cron_expression}</Typography.Text>
              ),
          },
          { title: t('job.col.action'), dataIndex: 'handler_action_id', render: actionName },
          {
            title: t('job.col.next'),
            dataIndex: 'next_run_time',
            render: (v: number | null, j) => (
              <span data-testid={`job-next-${j.name}`}>{v === null ? t('job.col.never') : formatDateTime(v)}</span>
            ),
          },
          {
            title: t('job.col.status'),
            dataIndex: 'status',
            render: (s: number, j) => (
              <Switch
                size="small"
                checked={s === 1}
                disabled={!mayCall(Routes.jobs.setStatus)}
                loading={status.isPending && status.variables?.id === j.id}
                onChange={(on) => status.mutate({ id: j.id, on })}
                aria-label={t('job.col.status')}
              />
            ),
          },
          {
            title: t('job.col.actions'),
            render: (_v, j) => (
              <Space size={4}>
                {mayCall(Routes.jobs.update) && (
                  <Button type="link" size="small" onClick={() => setEditing({ job: j })}>
                    {t('job.action.edit')}
                  </Button>
                )}
                <Button type="link" size="small" onClick={() => onLogs(j.id)}>
                  {t('job.action.logs')}
                </Button>
                {mayCall(Routes.jobs.remove) && (
                  <ConfirmDeleteButton
                    label={t('job.action.delete')}
                    title={t('job.delete.title', { name: j.name })}
                    content={t('job.delete.text')}
                    onConfirm={async () => {
                      await jobApi.remove(tenantId, j.id);
                      await qc.invalidateQueries({ queryKey: jobKeys.all });
                    }}
                  />
                )}
              </Space>
            ),
          },
        ]}
      />
      <JobDialog tenantId={tenantId} job={editing?.job ?? null} open={editing !== null} onClose={() => setEditing(null)} />
    </>
  );
}

function JobLogs({ tenantId, jobId, onJob }: { tenantId: string; jobId: string; onJob: (id: string) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const [state, setState] = useState<JobLog['state'] | ''>('');
  const [selected, setSelected] = useState<string[]>([]);
  const jobs = useQuery({
    queryKey: jobKeys.list(tenantId, 1, 100, ''),
    queryFn: ({ signal }) => jobApi.list(tenantId, { current_page: 1, page_size: 100 }, signal),
  });
  const logs = useQuery({
    queryKey: jobKeys.logs(tenantId, page.current, page.size, jobId, state),
    queryFn: ({ signal }) =>
      jobApi.logs(
        tenantId,
        { current_page: page.current, page_size: page.size, ...(jobId ? { job_id: jobId } : {}), ...(state ? { state } : {}) },
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  const changed = () => {
    setSelected([]);
    void qc.invalidateQueries({ queryKey: [...jobKeys.all, 'logs'] });
  };
  const remove = useMutation({ mutationFn: () => jobApi.deleteLogs(tenantId, selected), onSuccess: changed });
  const cleanup = useMutation({
    mutationFn: () => jobApi.cleanupLogs(tenantId, Date.now() - WEEK, jobId || undefined),
    onSuccess: (r) => {
      void message.success(t('job.logs.cleaned', { n: r.deleted }));
      changed();
    },
  });
  const canDelete = mayCall(Routes.jobs.deleteLogs);
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Select
          style={{ width: 220 }}
          value={jobId}
          onChange={(v) => {
            onJob(v);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          options={[{ value: '', label: t('job.logs.allJobs') }, ...(jobs.data?.list ?? []).map((j) => ({ value: j.id, label: j.name }))]}
        />
        <Select<JobLog['state'] | ''>
          style={{ width: 160 }}
          value={state}
          onChange={(v) => {
            setState(v);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          options={[
            { value: '', label: t('job.logs.allStates') },
            ...(['queued', 'running', 'succeeded', 'failed'] as const).map((s) => ({ value: s, label: t(`job.state.${s}`) })),
          ]}
        />
        {canDelete && (
          <>
            <Button danger disabled={!selected.length} loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('job.logs.delete')}
            </Button>
            <Button loading={cleanup.isPending} onClick={() => cleanup.mutate()}>
              {t('job.logs.cleanup')}
            </Button>
          </>
        )}
      </Space>
      <Table<JobLog>
        rowKey="id"
        size="middle"
        loading={logs.isFetching}
        dataSource={logs.data?.list ?? []}
        rowSelection={canDelete ? { selectedRowKeys: selected, onChange: (k) => setSelected(k as string[]) } : undefined}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: logs.data?.total ?? 0,
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          { title: t('job.col.name'), dataIndex: 'job_name' },
          { title: t('job.logs.scheduled'), dataIndex: 'scheduled_time', render: (v: number) => formatDateTime(v) },
          { title: t('job.logs.attempt'), dataIndex: 'attempt', width: 70 },
          {
            title: t('job.logs.state'),
            dataIndex: 'state',
            render: (s: JobLog['state']) => <Tag color={STATE_COLOURS[s]}>{t(`job.state.${s}`)}</Tag>,
          },
          { title: t('job.logs.message'), dataIndex: 'message', render: (m: string | null) => m ?? '' },
          { title: t('job.logs.started'), dataIndex: 'started_at', render: (v: number) => formatDateTime(v) },
          { title: t('job.logs.finished'), dataIndex: 'finished_at', render: (v: number | null) => formatDateTime(v) },
        ]}
      />
    </>
  );
}

/** Scheduled jobs (spec §7 /job-mgmt): the tenant's jobs with their next runs, and each run's log. */
export default function JobManagerPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'logs' ? 'logs' : 'jobs';
  const jobId = params.get('job') ?? '';
  if (!tenantId) return null;
  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('job.page.title')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        destroyOnHidden
        items={[
          {
            key: 'jobs',
            label: t('job.tab.jobs'),
            children: <JobList tenantId={tenantId} onLogs={(id) => setParams({ tab: 'logs', job: id }, { replace: true })} />,
          },
          {
            key: 'logs',
            label: t('job.tab.logs'),
            children: (
              <JobLogs
                tenantId={tenantId}
                jobId={jobId}
                onJob={(id) => setParams(id ? { tab: 'logs', job: id } : { tab: 'logs' }, { replace: true })}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
