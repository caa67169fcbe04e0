import { PlusOutlined } from '@ant-design/icons';
import type { CleanTask } from '@loggerhead/contract/schemas/data-service.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import type { ChooserColumn } from '../../../components/data-view/column-chooser-table.tsx';
import { PagedTable } from '../../../components/data-view/paged-table.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime, formatNumber } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { cleanTaskListQuery, dataServiceApi, dataServiceKeys } from '../api/data-service.api.ts';
import { CleanTaskDialog } from '../components/clean-task-dialog.tsx';

/** Clean tasks: each deletes one device's data older than N days, daily or when run. */
export function CleanTasksTab({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [keyword, setKeyword] = useState<string | undefined>();
  const [target, setTarget] = useState<CleanTask | 'new' | null>(null);
  const list = useQuery(cleanTaskListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));
  const refresh = () => qc.invalidateQueries({ queryKey: dataServiceKeys.cleanTasks });

  const status = useMutation({
    mutationFn: ({ id, to }: { id: string; to: 0 | 1 }) => dataServiceApi.setCleanTaskStatus(tenantId, id, to),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => dataServiceApi.removeCleanTask(tenantId, id),
    onSuccess: () => {
      void message.success(t('plugin.clean.deleted'));
      return refresh();
    },
  });
  const runNow = useMutation({
    mutationFn: (id: string) => dataServiceApi.runCleanTask(tenantId, id),
    onSuccess: (r) => {
      void message.success(
        t(r.limited ? 'plugin.clean.ranLimited' : 'plugin.clean.ran', {
          count: r.deleted,
          deleted: formatNumber(r.deleted, lang),
          cutoff: formatDateTime(r.cutoff),
        }),
      );
      return refresh();
    },
  });

  const columns: ChooserColumn<CleanTask>[] = [
    { key: 'name', title: t('plugin.clean.name'), render: (r) => <Typography.Text strong>{r.name}</Typography.Text> },
    { key: 'device', title: t('plugin.clean.device'), render: (r) => r.things_name ?? r.things_id },
    {
      key: 'keep_days',
      title: t('plugin.clean.keepDays'),
      render: (r) => t('plugin.clean.keepDaysText', { count: r.keep_days }),
    },
    {
      key: 'status',
      title: t('plugin.col.status'),
      render: (r) => (
        <Tag color={r.status === 1 ? 'green' : 'default'} data-testid="clean-status">
          {t(r.status === 1 ? 'plugin.status.enabled' : 'plugin.status.disabled')}
        </Tag>
      ),
    },
    { key: 'last_run', title: t('plugin.col.lastRun'), render: (r) => (r.last_run_at ? formatDateTime(r.last_run_at) : EMPTY) },
    {
      key: 'last_result',
      title: t('plugin.clean.lastResult'),
      render: (r) => {
        if (r.last_error)
          return (
            <Tooltip title={r.last_error}>
              <Typography.Text type="danger">{t('plugin.clean.failed')}</Typography.Text>
            </Tooltip>
          );
        if (r.last_deleted === null) return EMPTY;
        return (
          <span data-testid="clean-last-deleted">
            {t('plugin.clean.deletedRows', { count: r.last_deleted, deleted: formatNumber(r.last_deleted, lang) })}
            {r.last_limited && (
              <Tooltip title={t('plugin.clean.limitedHelp')}>
                <Tag color="orange" style={{ marginLeft: 8 }}>
                  {t('plugin.clean.limited')}
                </Tag>
              </Tooltip>
            )}
          </span>
        );
      },
    },
    {
      key: 'actions',
      title: t('plugin.col.actions'),
      always: true,
      fixed: 'right',
      render: (r) => (
        <Space size={0}>
          {can('data-mgmt:clean-task:execute') && (
            <Button
              type="link"
              size="small"
              loading={runNow.isPending && runNow.variables === r.id}
              onClick={() => runNow.mutate(r.id)}
              data-testid="clean-run"
            >
              {t('plugin.action.runNow')}
            </Button>
          )}
          {can('data-mgmt:clean-task:update') && (
            <Button type="link" size="small" onClick={() => setTarget(r)}>
              {t('plugin.action.edit')}
            </Button>
          )}
          {can('data-mgmt:clean-task:updateStatus') && (
            <Button type="link" size="small" onClick={() => status.mutate({ id: r.id, to: r.status === 1 ? 0 : 1 })}>
              {t(r.status === 1 ? 'plugin.action.disable' : 'plugin.action.enable')}
            </Button>
          )}
          {can('data-mgmt:clean-task:delete') && (
            <ConfirmDeleteButton
              label={t('plugin.action.delete')}
              title={t('plugin.clean.deleteTitle')}
              content={t('plugin.clean.deleteConfirm', { name: r.name })}
              onConfirm={() => remove.mutateAsync(r.id)}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <PagedTable<CleanTask>
        configKey="plugin.clean.table"
        testId="clean-table"
        columns={columns}
        page={list.data}
        fetching={list.isFetching}
        paging={paging}
        onPaging={setPaging}
        rowKey={(r) => r.id}
        toolbar={
          <>
            <Input.Search
              allowClear
              placeholder={t('plugin.list.search')}
              style={{ width: 260 }}
              onSearch={(v) => {
                setKeyword(v.trim() || undefined);
                setPaging((p) => firstPage(p.size));
              }}
            />
            {can('data-mgmt:clean-task:create') && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-clean-task">
                {t('plugin.clean.add')}
              </Button>
            )}
          </>
        }
      />
      <CleanTaskDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />
    </>
  );
}
