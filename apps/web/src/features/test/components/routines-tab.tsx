import { PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { TestRoutine } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Popconfirm, Space, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { testApi } from '../api/testmgmt.api.ts';
import { routineListQuery, testKeys } from '../api/testmgmt.queries.ts';
import { RoutineEditor } from './routine-editor.tsx';
import { StartRunDialog } from './start-run-dialog.tsx';

export interface RoutinesTabProps {
  tenantId: string;
  /** Without the Groovy runtime, runs cannot start. */
  runtimeAvailable: boolean;
  onStarted: () => void;
}

/** The tenant's routines: list, new, edit, delete, start. */
export function RoutinesTab({ tenantId, runtimeAvailable, onStarted }: RoutinesTabProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [page, setPage] = useState({ current_page: 1, page_size: 10, name: undefined as string | undefined });
  const list = useQuery(routineListQuery(tenantId, page));
  const [editing, setEditing] = useState<{ routine: TestRoutine | null } | null>(null);
  const [starting, setStarting] = useState<TestRoutine | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => testApi.deleteRoutine(tenantId, id),
    onSuccess: () => {
      message.success(t('test.deleted'));
      void qc.invalidateQueries({ queryKey: testKeys.routines(tenantId) });
      void qc.invalidateQueries({ queryKey: testKeys.scripts(tenantId) });
    },
  });

  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        <Input.Search
          allowClear
          placeholder={t('test.routine.search')}
          style={{ width: 240 }}
          onSearch={(v) => setPage((p) => ({ ...p, current_page: 1, name: v.trim() || undefined }))}
        />
        {can('test-mgmt:routine:create') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ routine: null })} data-testid="routine-new">
            {t('test.routine.new')}
          </Button>
        )}
      </Space>
      <Table<TestRoutine>
        rowKey="id"
        size="middle"
        data-testid="routine-table"
        loading={list.isFetching && !list.data}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page.current_page,
          pageSize: page.page_size,
          total: list.data?.total ?? 0,
          onChange: (current_page, page_size) => setPage((p) => ({ ...p, current_page, page_size })),
        }}
        columns={[
          {
            key: 'name',
            title: t('test.field.name'),
            render: (_, r) => (
              <Typography.Link onClick={() => setEditing({ routine: r })} data-testid="routine-name-link">
                {r.name}
              </Typography.Link>
            ),
          },
          { key: 'steps', title: t('test.routine.steps'), render: (_, r) => r.steps.map((s) => t(`test.step.${s.type}`)).join(' → ') },
          { key: 'duration', title: t('test.routine.duration'), render: (_, r) => t('test.seconds', { count: r.duration_seconds }) },
          { key: 'script', title: t('test.routine.script'), render: (_, r) => r.script_name },
          { key: 'updated_at', title: t('test.field.updatedAt'), render: (_, r) => formatDateTime(r.updated_at) },
          {
            key: 'actions',
            title: t('test.field.actions'),
            render: (_, r) => (
              <Space size={0}>
                {can('test-mgmt:run:execute') && (
                  <Tooltip title={runtimeAvailable ? undefined : t('test.runtime.unavailable')}>
                    <Button
                      type="link"
                      size="small"
                      icon={<PlayCircleOutlined />}
                      disabled={!runtimeAvailable}
                      onClick={() => setStarting(r)}
                      data-testid="routine-start"
                    >
                      {t('test.run.start')}
                    </Button>
                  </Tooltip>
                )}
                {can('test-mgmt:routine:update') && (
                  <Button type="link" size="small" onClick={() => setEditing({ routine: r })}>
                    {t('test.action.edit')}
                  </Button>
                )}
                {can('test-mgmt:routine:delete') && (
                  <Popconfirm title={t('test.routine.confirmDelete', { name: r.name })} onConfirm={() => remove.mutate(r.id)}>
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
      <RoutineEditor tenantId={tenantId} open={editing !== null} routine={editing?.routine ?? null} onClose={() => setEditing(null)} />
      <StartRunDialog
        tenantId={tenantId}
        routine={starting}
        onClose={() => setStarting(null)}
        onStarted={() => {
          setStarting(null);
          onStarted();
        }}
      />
    </>
  );
}
