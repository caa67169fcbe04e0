import { PlusOutlined } from '@ant-design/icons';
import type { Plugin } from '@loggerhead/contract/schemas/plugins.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Segmented, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import type { ChooserColumn } from '../../../components/data-view/column-chooser-table.tsx';
import { PagedTable } from '../../../components/data-view/paged-table.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { pluginApi, pluginKeys, pluginListQuery } from '../api/plugin.api.ts';
import { PluginDialog } from '../components/plugin-dialog.tsx';
import { PluginTestBox } from '../components/plugin-test-box.tsx';
import { CleanTasksTab } from './clean-tasks.tab.tsx';
import { DownloadTemplatesTab } from './download-templates.tab.tsx';

type TypeFilter = 'all' | 'transform' | 'export';

/** Data transform and export plugins: JSONata expressions kept as data, with a test-run box. */
function PluginsTab({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [type, setType] = useState<TypeFilter>('all');
  const [target, setTarget] = useState<Plugin | 'new' | null>(null);
  const [expression, setExpression] = useState('{\n  "speed_ms": data.signals[signal="speed"].values.($ / 3.6)\n}');
  const list = useQuery(
    pluginListQuery(tenantId, { current_page: paging.page, page_size: paging.size, ...(type === 'all' ? {} : { type }) }),
  );
  const remove = useMutation({
    mutationFn: (id: string) => pluginApi.remove(tenantId, id),
    onSuccess: () => {
      void message.success(t('plugin.delete.done'));
      return qc.invalidateQueries({ queryKey: pluginKeys.all });
    },
  });

  const columns: ChooserColumn<Plugin>[] = [
    { key: 'name', title: t('plugin.col.name'), render: (p) => <Typography.Text strong>{p.name}</Typography.Text> },
    {
      key: 'type',
      title: t('plugin.col.type'),
      render: (p) => <Tag color={p.type === 'transform' ? 'blue' : 'purple'}>{t(`plugin.type.${p.type}`)}</Tag>,
    },
    {
      key: 'expression',
      title: t('plugin.col.expression'),
      ellipsis: true,
      width: 320,
      render: (p) => (
        <Tooltip title={<pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{p.expression}</pre>}>
          <Typography.Text code>{p.expression}</Typography.Text>
        </Tooltip>
      ),
    },
    { key: 'description', title: t('plugin.col.description'), ellipsis: true, render: (p) => p.description ?? '' },
    { key: 'updated', title: t('plugin.col.updated'), render: (p) => formatDateTime(p.updated_at) },
    {
      key: 'actions',
      title: t('plugin.col.actions'),
      always: true,
      fixed: 'right',
      render: (p) => (
        <Space size="small">
          {can('data-mgmt:plugin:execute') && (
            <Button type="link" size="small" onClick={() => setExpression(p.expression)}>
              {t('plugin.action.try')}
            </Button>
          )}
          {can('data-mgmt:plugin:update') && (
            <Button type="link" size="small" onClick={() => setTarget(p)}>
              {t('plugin.action.edit')}
            </Button>
          )}
          {can('data-mgmt:plugin:delete') && (
            <ConfirmDeleteButton
              label={t('plugin.action.delete')}
              title={t('plugin.delete.title')}
              content={t('plugin.delete.confirm', { name: p.name })}
              onConfirm={() => remove.mutateAsync(p.id)}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Alert type="info" showIcon message={t('plugin.manager.intro')} />
      <PagedTable<Plugin>
        configKey="plugin.manager.table"
        testId="plugin-table"
        columns={columns}
        page={list.data}
        fetching={list.isFetching}
        paging={paging}
        onPaging={setPaging}
        rowKey={(p) => p.id}
        toolbar={
          <>
            <Segmented<TypeFilter>
              value={type}
              onChange={(v) => {
                setType(v);
                setPaging(firstPage(paging.size));
              }}
              options={(['all', 'transform', 'export'] as const).map((v) => ({ value: v, label: t(`plugin.filter.${v}`) }))}
            />
            {can('data-mgmt:plugin:create') && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-plugin">
                {t('plugin.list.add')}
              </Button>
            )}
          </>
        }
      />
      {can('data-mgmt:plugin:execute') && <PluginTestBox tenantId={tenantId} expression={expression} onExpression={setExpression} />}
      <PluginDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />
    </Space>
  );
}

const TABS = ['plugins', 'templates', 'clean'] as const;
type Tab = (typeof TABS)[number];

/**
 * The data service (spec §7 /data-mgmt): data plugins, download templates and clean tasks, each
 * tab shown to a user whose keys let them list it. The tab is kept in the address (`?tab=`).
 */
export default function PluginManagerPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [params, setParams] = useSearchParams();
  const shown: Record<Tab, boolean> = {
    plugins: can('data-mgmt:plugin:query'),
    templates: can('data-mgmt:download-template:query'),
    clean: can('data-mgmt:clean-task:query'),
  };
  const open = TABS.filter((k) => shown[k]);
  const asked = params.get('tab') as Tab | null;
  const active = asked && open.includes(asked) ? asked : open[0];
  const body = (k: Tab) => {
    if (!tenantId) return null;
    if (k === 'plugins') return <PluginsTab tenantId={tenantId} />;
    if (k === 'templates') return <DownloadTemplatesTab tenantId={tenantId} />;
    return <CleanTasksTab tenantId={tenantId} />;
  };
  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('plugin.title')}
        </Typography.Title>
      }
    >
      <Tabs
        activeKey={active}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        destroyOnHidden
        items={open.map((k) => ({ key: k, label: <span data-testid={`tab-${k}`}>{t(`plugin.tab.${k}`)}</span>, children: body(k) }))}
      />
    </Card>
  );
}
