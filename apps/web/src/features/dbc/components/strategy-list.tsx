import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Strategy } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/api-error.ts';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys, strategyListQuery } from '../../../api/dbc.queries.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import type { PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { StrategyFormDialog } from './strategy-form-dialog.tsx';

/** Signal strategies: a named subset (1-100 signals) of one DBC file that a channel can be bound to. */
export function StrategyList({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>({ page: 1, size: 10 });
  const [target, setTarget] = useState<Strategy | 'new' | null>(null);
  const list = useQuery(strategyListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));

  const remove = useMutation({
    meta: { silent: true },
    mutationFn: (st: Strategy) => dbcApi.removeStrategy(tenantId, st.id),
    onSuccess: () => {
      void message.success(t('dbc.delete.done'));
      return qc.invalidateQueries({ queryKey: dbcKeys.all });
    },
    onError: (err, st) =>
      modal.error({
        title: t('dbc.delete.refused'),
        content: (
          <div title={err instanceof ApiError ? err.errors[0]?.message : undefined}>
            <div>{errorText(err, t, (k) => i18n.exists(k))}</div>
            {err instanceof ApiError && err.errors[0]?.code === 'mapping.strategy-in-use' && (
              <Typography.Text type="secondary">{t('dbc.delete.boundCount', { count: st.bound_channels })}</Typography.Text>
            )}
          </div>
        ),
        okText: t('common.action.ok'),
      }),
  });

  const columns: ChooserColumn<Strategy>[] = [
    { key: 'name', title: t('dbc.strategy.name'), render: (s) => <span className="lh-mono">{s.name}</span> },
    { key: 'nickname', title: t('dbc.strategy.nickname') },
    { key: 'description', title: t('dbc.strategy.description'), ellipsis: true, width: 200 },
    { key: 'dbc_name', title: t('dbc.strategy.dbc') },
    {
      key: 'signal_count',
      title: t('dbc.strategy.signalCount'),
      align: 'right',
      render: (s) => (
        <Tooltip
          title={s.signals
            .slice(0, 20)
            .map((x) => `${x.message}.${x.signal}`)
            .join(', ')}
        >
          <span>{s.signal_count}</span>
        </Tooltip>
      ),
    },
    { key: 'bound_channels', title: t('dbc.col.bound'), align: 'right' },
    { key: 'remark', title: t('dbc.strategy.remark'), ellipsis: true, defaultHidden: true },
    { key: 'updated_at', title: t('dbc.col.updatedAt'), render: (s) => formatDateTime(s.updated_at) },
    {
      key: 'actions',
      title: t('dbc.col.actions'),
      always: true,
      fixed: 'right',
      render: (s) => (
        <Space size={0}>
          {mayCall(Routes.mapping.updateStrategy) && (
            <Button type="link" size="small" onClick={() => setTarget(s)}>
              {t('dbc.action.edit')}
            </Button>
          )}
          {mayCall(Routes.mapping.removeStrategy) && (
            <ConfirmDeleteButton
              label={t('dbc.action.delete')}
              title={t('dbc.delete.title')}
              content={t('dbc.delete.confirm', { name: s.name })}
              onConfirm={() => remove.mutateAsync(s).catch(() => undefined)}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ColumnChooserTable<Strategy>
        configKey="dbc.strategies.table"
        testId="strategy-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(s) => s.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <>
            <Input.Search
              allowClear
              placeholder={t('dbc.strategy.search')}
              style={{ width: 260 }}
              onSearch={(v) => {
                setKeyword(v.trim() || undefined);
                setPaging((p) => ({ page: 1, size: p.size }));
              }}
            />
            {mayCall(Routes.mapping.createStrategy) && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="strategy-add">
                {t('dbc.strategy.add')}
              </Button>
            )}
          </>
        }
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
      <StrategyFormDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />
    </>
  );
}
