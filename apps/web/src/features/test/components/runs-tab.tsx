import {
  TEST_RUN_STATES,
  TEST_VERDICTS,
  type TestRun,
  type TestRunState,
  type TestVerdict,
} from '@loggerhead/contract/schemas/testmgmt.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, DatePicker, Drawer, Popconfirm, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceListQuery } from '../../../api/things.queries.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { testApi } from '../api/testmgmt.api.ts';
import { routineListQuery, runListQuery, testKeys } from '../api/testmgmt.queries.ts';
import { CompareReports } from './compare-reports.tsx';
import { RunReport } from './report-view.tsx';
import { isActive, RunState, VerdictTag } from './run-state.tsx';
import { useRunsLive } from './use-runs-live.ts';

/** What the runs list is narrowed to: a routine, a device, a start-time range, a state, a verdict. */
interface RunFilter {
  routine_id?: string;
  things_id?: string;
  begin_time?: number;
  end_time?: number;
  state?: TestRunState;
  verdict?: TestVerdict;
}

/** Runs of the tenant's devices with their live state; filter, cancel, open a report, compare two. */
export function RunsTab({ tenantId, runtimeAvailable }: { tenantId: string; runtimeAvailable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const connected = useRunsLive(tenantId);
  const [filter, setFilter] = useState<RunFilter>({});
  const [paging, setPaging] = useState({ current_page: 1, page_size: 20 });
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [deviceKeyword, setDeviceKeyword] = useState('');
  const [routineKeyword, setRoutineKeyword] = useState('');
  const routines = useQuery({ ...routineListQuery(tenantId, { current_page: 1, page_size: 100, name: routineKeyword || undefined }) });
  const devices = useQuery({
    ...deviceListQuery(tenantId, { current_page: 1, page_size: 100, keyword: deviceKeyword || undefined }),
    refetchInterval: false,
  });
  const refine = (patch: RunFilter) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, current_page: 1 }));
  };
  // The socket pushes each change; while a listed run is active the list is also read now and then, in case a push was missed.
  const list = useQuery({
    ...runListQuery(tenantId, { ...paging, ...filter }),
    refetchInterval: (q) => (q.state.data?.list.some((r) => isActive(r.state)) ? 10_000 : false),
  });
  const [selected, setSelected] = useState<string[]>([]);
  const [open, setOpen] = useState<{ report: string } | { compare: [string, string] } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: testKeys.runs(tenantId) });
  const cancel = useMutation({
    mutationFn: (id: string) => testApi.cancelRun(tenantId, id),
    onSuccess: () => void refresh(),
  });
  const remove = useMutation({
    mutationFn: (id: string) => testApi.deleteRun(tenantId, id),
    onSuccess: () => {
      message.success(t('test.deleted'));
      void refresh();
    },
  });
  const analysed = (r: TestRun) => r.state === 'analyzed';

  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        <Space wrap>
          <Select<string>
            allowClear
            showSearch
            filterOption={false}
            onSearch={setRoutineKeyword}
            placeholder={t('test.run.routine')}
            style={{ width: 180 }}
            value={filter.routine_id}
            onChange={(routine_id) => refine({ routine_id })}
            data-testid="runs-filter-routine"
            options={(routines.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))}
          />
          <Select<string>
            allowClear
            showSearch
            filterOption={false}
            onSearch={setDeviceKeyword}
            placeholder={t('test.run.device')}
            style={{ width: 180 }}
            value={filter.things_id}
            onChange={(things_id) => refine({ things_id })}
            data-testid="runs-filter-device"
            options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))}
          />
          <DatePicker.RangePicker
            showTime
            value={range}
            placeholder={[t('test.run.filterFrom'), t('test.run.filterTo')]}
            onChange={(v) => {
              const picked = v?.[0] && v?.[1] ? ([v[0], v[1]] as [Dayjs, Dayjs]) : null;
              setRange(picked);
              refine({ begin_time: picked?.[0].valueOf(), end_time: picked?.[1].valueOf() });
            }}
            data-testid="runs-filter-range"
          />
          <Select<TestRunState>
            allowClear
            placeholder={t('test.field.state')}
            style={{ width: 150 }}
            value={filter.state}
            onChange={(state) => refine({ state })}
            options={TEST_RUN_STATES.map((s) => ({ value: s, label: t(`test.state.${s}`) }))}
          />
          <Select<TestVerdict>
            allowClear
            placeholder={t('test.field.verdict')}
            style={{ width: 130 }}
            value={filter.verdict}
            onChange={(verdict) => refine({ verdict })}
            options={TEST_VERDICTS.map((v) => ({ value: v, label: t(`test.verdict.${v}`) }))}
          />
          <Badge
            status={connected ? 'success' : 'default'}
            text={connected ? t('test.run.live') : t('test.run.offline')}
            data-testid="runs-live"
          />
        </Space>
        <Space>
          {!runtimeAvailable && <Typography.Text type="secondary">{t('test.runtime.unavailable')}</Typography.Text>}
          <Tooltip title={t('test.run.compareHint')}>
            <Button
              disabled={selected.length !== 2}
              onClick={() => setOpen({ compare: [selected[0], selected[1]] })}
              data-testid="runs-compare"
            >
              {t('test.run.compare')}
            </Button>
          </Tooltip>
        </Space>
      </Space>
      <Table<TestRun>
        rowKey="id"
        size="middle"
        data-testid="run-table"
        loading={list.isFetching && !list.data}
        dataSource={list.data?.list ?? []}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected((keys as string[]).slice(-2)),
          getCheckboxProps: (r) => ({ disabled: !analysed(r) }),
        }}
        pagination={{
          current: paging.current_page,
          pageSize: paging.page_size,
          total: list.data?.total ?? 0,
          onChange: (current_page, page_size) => setPaging({ current_page, page_size }),
        }}
        columns={[
          { key: 'routine', title: t('test.run.routine'), render: (_, r) => <span data-testid="run-routine">{r.routine_name}</span> },
          {
            key: 'device',
            title: t('test.run.device'),
            render: (_, r) => (
              <>
                {r.things_name}
                {r.dry_run && <Typography.Text type="secondary"> · {t('test.run.dryTag')}</Typography.Text>}
              </>
            ),
          },
          { key: 'state', title: t('test.field.state'), render: (_, r) => <RunState run={r} /> },
          { key: 'verdict', title: t('test.field.verdict'), render: (_, r) => <VerdictTag verdict={r.verdict} /> },
          { key: 'script', title: t('test.routine.script'), render: (_, r) => `${r.script_name} v${r.script_version}` },
          { key: 'created_at', title: t('test.run.startedAt'), render: (_, r) => formatDateTime(r.started_at ?? r.created_at) },
          {
            key: 'actions',
            title: t('test.field.actions'),
            render: (_, r) => (
              <Space size={0}>
                {analysed(r) && (
                  <Button type="link" size="small" onClick={() => setOpen({ report: r.id })} data-testid="run-report">
                    {t('test.run.report')}
                  </Button>
                )}
                {isActive(r.state) && can('test-mgmt:run:cancel') && (
                  <Popconfirm title={t('test.run.confirmCancel')} onConfirm={() => cancel.mutate(r.id)}>
                    <Button type="link" size="small" danger data-testid="run-cancel">
                      {t('test.run.cancel')}
                    </Button>
                  </Popconfirm>
                )}
                {!isActive(r.state) && can('test-mgmt:run:delete') && (
                  <Popconfirm title={t('test.run.confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
                    <Button type="link" size="small" danger>
                      {t('test.action.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        size={Math.min(open && 'compare' in open ? 1400 : 960, window.innerWidth - 40)}
        destroyOnHidden
        title={open && 'compare' in open ? t('test.run.compare') : t('test.run.report')}
      >
        {open && 'report' in open && <RunReport tenantId={tenantId} runId={open.report} />}
        {open && 'compare' in open && <CompareReports tenantId={tenantId} ids={open.compare} />}
      </Drawer>
    </>
  );
}
