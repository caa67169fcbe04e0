import { PlusOutlined } from '@ant-design/icons';
import { type ForwardRule, ForwardStatus } from '@loggerhead/contract/schemas/forward.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { forwardApi, forwardKeys, forwardListQuery } from '../api/forward.api.ts';
import { DeadLettersDrawer } from '../components/dead-letters-drawer.tsx';
import { ForwardRuleDialog } from '../components/forward-rule-dialog.tsx';

const STATUS_TAG: Record<number, { color: string; key: string }> = {
  [ForwardStatus.enabled]: { color: 'green', key: 'forward.status.enabled' },
  [ForwardStatus.disabled]: { color: 'default', key: 'forward.status.disabled' },
  [ForwardStatus.paused]: { color: 'orange', key: 'forward.status.paused' },
};

/** Where a rule's destination points, without its secrets. */
function destinationText(d: Record<string, unknown>): string {
  if (Array.isArray(d.brokers)) return `${d.topic ?? ''} @ ${(d.brokers as string[]).join(',')}`;
  return String(d.url ?? '');
}

/** Things-forward rules (spec §7 /alert-mgmt): the tenant's rules with their delivery counters. */
export default function ForwardManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [target, setTarget] = useState<ForwardRule | 'new' | null>(null);
  const [dead, setDead] = useState<ForwardRule | null>(null);
  const list = useQuery(forwardListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));

  const status = useMutation({
    mutationFn: ({ id, to }: { id: string; to: 'enable' | 'disable' | 'pause' }) => forwardApi.setStatus(tenantId as string, id, to),
    onSuccess: () => qc.invalidateQueries({ queryKey: forwardKeys.all }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => forwardApi.remove(tenantId as string, id),
    onSuccess: () => {
      void message.success(t('forward.delete.done'));
      return qc.invalidateQueries({ queryKey: forwardKeys.all });
    },
  });

  const mayUpdate = can('alert:things-forward:update');
  const mayStatus = can('alert:things-forward:updateStatus');
  const rows = list.data?.list ?? [];

  const columns: ChooserColumn<ForwardRule>[] = [
    { key: 'name', title: t('forward.col.name'), render: (r) => <Typography.Text strong>{r.name}</Typography.Text> },
    {
      key: 'status',
      title: t('forward.col.status'),
      render: (r) => (
        <Space size={4}>
          <Tag color={STATUS_TAG[r.status]?.color} data-testid="forward-status">
            {t(STATUS_TAG[r.status]?.key ?? 'forward.status.disabled')}
          </Tag>
          {r.counters.backlog_alarm && <Tag color="red">{t('forward.backlog', { count: r.counters.dropped })}</Tag>}
        </Space>
      ),
    },
    { key: 'devices', title: t('forward.col.devices'), render: (r) => t(`forward.scope.${r.device_scope}`) },
    { key: 'data', title: t('forward.col.data'), render: (r) => r.data_kinds.map((k) => t(`forward.kind.${k}`)).join(', ') },
    {
      key: 'destination',
      title: t('forward.col.destination'),
      ellipsis: true,
      width: 240,
      render: (r) => (
        <span>
          <Tag>{String(r.destination.kind).toUpperCase()}</Tag>
          {destinationText(r.destination)}
        </span>
      ),
    },
    {
      key: 'delivered',
      title: t('forward.col.delivered'),
      render: (r) => <span data-testid="counter-delivered">{r.counters.delivered}</span>,
    },
    {
      key: 'filtered',
      title: t('forward.col.filtered'),
      render: (r) => <span data-testid="counter-filtered">{r.counters.filtered}</span>,
    },
    { key: 'failed', title: t('forward.col.failed'), render: (r) => <span data-testid="counter-failed">{r.counters.failed}</span> },
    { key: 'pending', title: t('forward.col.pending'), render: (r) => r.counters.pending },
    {
      key: 'dead_letters',
      title: t('forward.col.deadLetters'),
      render: (r) =>
        r.counters.dead_letters ? (
          <Button type="link" size="small" danger onClick={() => setDead(r)}>
            {r.counters.dead_letters}
          </Button>
        ) : (
          0
        ),
    },
    {
      key: 'latency',
      title: t('forward.col.latency'),
      render: (r) => (r.counters.latency_ms === null ? EMPTY : `${r.counters.latency_ms} ms`),
    },
    {
      key: 'last_error',
      title: t('forward.col.lastError'),
      ellipsis: true,
      width: 200,
      render: (r) =>
        r.counters.last_error ? (
          <Tooltip title={`${formatDateTime(r.counters.last_error_at ?? 0)} ${r.counters.last_error}`}>
            <Typography.Text type="danger">{r.counters.last_error}</Typography.Text>
          </Tooltip>
        ) : (
          EMPTY
        ),
    },
    {
      key: 'actions',
      title: t('forward.col.actions'),
      always: true,
      fixed: 'right',
      render: (r) => (
        <Space size={0}>
          {mayUpdate && (
            <Button type="link" size="small" onClick={() => setTarget(r)}>
              {t('forward.action.edit')}
            </Button>
          )}
          {mayStatus && r.status !== ForwardStatus.enabled && (
            <Button type="link" size="small" onClick={() => status.mutate({ id: r.id, to: 'enable' })}>
              {t('forward.action.enable')}
            </Button>
          )}
          {mayStatus && r.status === ForwardStatus.enabled && (
            <Button type="link" size="small" onClick={() => status.mutate({ id: r.id, to: 'pause' })}>
              {t('forward.action.pause')}
            </Button>
          )}
          {mayStatus && r.status !== ForwardStatus.disabled && (
            <Button type="link" size="small" onClick={() => status.mutate({ id: r.id, to: 'disable' })}>
              {t('forward.action.disable')}
            </Button>
          )}
          <Button type="link" size="small" onClick={() => setDead(r)}>
            {t('forward.action.deadLetters')}
          </Button>
          {can('alert:things-forward:delete') && (
            <ConfirmDeleteButton
              label={t('forward.action.delete')}
              title={t('forward.delete.title')}
              content={t('forward.delete.confirm', { name: r.name, pending: r.counters.pending })}
              onConfirm={() => remove.mutateAsync(r.id)}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('forward.manager.title')}
        </Typography.Title>
      }
      extra={
        can('alert:things-forward:create') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-forward-rule">
            {t('forward.list.add')}
          </Button>
        )
      }
    >
      <ColumnChooserTable<ForwardRule>
        configKey="forward.manager.table"
        testId="forward-table"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('forward.list.search')}
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
      {tenantId && <ForwardRuleDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />}
      {tenantId && <DeadLettersDrawer tenantId={tenantId} rule={dead} onClose={() => setDead(null)} />}
    </Card>
  );
}
