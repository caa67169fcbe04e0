import { PlusOutlined } from '@ant-design/icons';
import type { DownloadTemplate } from '@loggerhead/contract/schemas/data-service.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import type { ChooserColumn } from '../../../components/data-view/column-chooser-table.tsx';
import { PagedTable } from '../../../components/data-view/paged-table.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { dataServiceApi, dataServiceKeys, templateListQuery } from '../api/data-service.api.ts';
import { DownloadTemplateDialog } from '../components/download-template-dialog.tsx';
import { idsToText } from '../components/template-form.ts';
import { type TemplateRun, TemplateRunDialog } from '../components/template-run-dialog.tsx';

/** Download templates: saved exports, run on demand into one file per device. */
export function DownloadTemplatesTab({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [keyword, setKeyword] = useState<string | undefined>();
  const [target, setTarget] = useState<DownloadTemplate | 'new' | null>(null);
  const [run, setRun] = useState<TemplateRun | null>(null);
  const list = useQuery(templateListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));
  const devices = useQuery({
    queryKey: dataServiceKeys.devices(tenantId),
    queryFn: ({ signal }) => dataServiceApi.devices(tenantId, undefined, signal),
  });
  const names = useMemo(() => new Map((devices.data?.list ?? []).map((d) => [d.id, d.name])), [devices.data]);

  const remove = useMutation({
    mutationFn: (id: string) => dataServiceApi.removeTemplate(tenantId, id),
    onSuccess: () => {
      void message.success(t('plugin.template.deleted'));
      return qc.invalidateQueries({ queryKey: dataServiceKeys.templates });
    },
  });
  const start = useMutation({
    mutationFn: (r: DownloadTemplate) => dataServiceApi.runTemplate(tenantId, r.id),
    onSuccess: (res, r) => {
      setRun({ name: r.name, format: r.format, ...res });
      return qc.invalidateQueries({ queryKey: dataServiceKeys.templates });
    },
  });

  const columns: ChooserColumn<DownloadTemplate>[] = [
    { key: 'name', title: t('plugin.template.name'), render: (r) => <Typography.Text strong>{r.name}</Typography.Text> },
    {
      key: 'devices',
      title: t('plugin.template.devices'),
      ellipsis: true,
      width: 220,
      render: (r) => r.things_ids.map((id) => names.get(id) ?? id).join(', '),
    },
    {
      key: 'format',
      title: t('plugin.template.format'),
      render: (r) => (
        <Space size={4}>
          <Tag>{r.format.toUpperCase()}</Tag>
          {r.plugin_id && <Tag color="purple">{t('plugin.template.plugin')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'filters',
      title: t('plugin.template.filters'),
      render: (r) =>
        [r.channels.map((c) => `CAN${c}`).join(', '), idsToText(r.ids)].filter(Boolean).join(' · ') || t('plugin.template.everything'),
    },
    {
      key: 'range',
      title: t('plugin.template.range'),
      render: (r) =>
        r.last_hours !== null
          ? t('plugin.template.lastHoursText', { count: r.last_hours })
          : `${formatDateTime(r.begin_time)} ~ ${formatDateTime(r.end_time)}`,
    },
    { key: 'last_run', title: t('plugin.col.lastRun'), render: (r) => (r.last_run_at ? formatDateTime(r.last_run_at) : EMPTY) },
    {
      key: 'actions',
      title: t('plugin.col.actions'),
      always: true,
      fixed: 'right',
      render: (r) => (
        <Space size={0}>
          {can('data-mgmt:things-data:download') && (
            <Button
              type="link"
              size="small"
              loading={start.isPending && start.variables?.id === r.id}
              onClick={() => start.mutate(r)}
              data-testid="template-run-start"
            >
              {t('plugin.action.run')}
            </Button>
          )}
          {can('data-mgmt:download-template:update') && (
            <Button type="link" size="small" onClick={() => setTarget(r)}>
              {t('plugin.action.edit')}
            </Button>
          )}
          {can('data-mgmt:download-template:delete') && (
            <ConfirmDeleteButton
              label={t('plugin.action.delete')}
              title={t('plugin.template.deleteTitle')}
              content={t('plugin.template.deleteConfirm', { name: r.name })}
              onConfirm={() => remove.mutateAsync(r.id)}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <PagedTable<DownloadTemplate>
        configKey="plugin.templates.table"
        testId="template-table"
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
            {can('data-mgmt:download-template:create') && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-template">
                {t('plugin.template.add')}
              </Button>
            )}
          </>
        }
      />
      <DownloadTemplateDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />
      <TemplateRunDialog tenantId={tenantId} run={run} names={names} onClose={() => setRun(null)} />
    </>
  );
}
