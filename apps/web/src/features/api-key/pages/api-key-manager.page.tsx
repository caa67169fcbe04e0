import { PlusOutlined } from '@ant-design/icons';
import type { ApiKey } from '@loggerhead/contract/schemas/api-keys.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { apiKeyApi, apiKeyKeys, apiKeyListQuery } from '../api/api-key.api.ts';
import { ApiKeyDialog } from '../components/api-key-dialog.tsx';

function statusOf(k: ApiKey): 'active' | 'revoked' | 'expired' {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at !== null && k.expires_at <= Date.now()) return 'expired';
  return 'active';
}
const STATUS_COLOR = { active: 'green', revoked: 'default', expired: 'orange' } as const;

/** Tenant API keys for machines: create (the token shown once), list with last use, revoke. */
export default function ApiKeyManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [adding, setAdding] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const list = useQuery(apiKeyListQuery(tenantId, { current_page: paging.page, page_size: paging.size }));
  const revoke = useMutation({
    mutationFn: (id: string) => apiKeyApi.revoke(tenantId as string, id),
    onSuccess: () => {
      void message.success(t('api-key.revoke.done'));
      return qc.invalidateQueries({ queryKey: apiKeyKeys.all });
    },
  });

  const columns: ChooserColumn<ApiKey>[] = [
    { key: 'name', title: t('api-key.col.name'), render: (k) => <Typography.Text strong>{k.name}</Typography.Text> },
    { key: 'prefix', title: t('api-key.col.prefix'), render: (k) => <Typography.Text code>{k.prefix}…</Typography.Text> },
    {
      key: 'permissions',
      title: t('api-key.col.permissions'),
      ellipsis: true,
      width: 260,
      render: (k) => (
        <Tooltip title={k.permissions.join('\n')}>
          <span>{k.permissions.join(', ')}</span>
        </Tooltip>
      ),
    },
    {
      key: 'devices',
      title: t('api-key.col.devices'),
      render: (k) => (k.things_ids ? t('api-key.devices.count', { count: k.things_ids.length }) : t('api-key.devices.all')),
    },
    { key: 'creator', title: t('api-key.col.creator'), render: (k) => k.created_by_name ?? EMPTY },
    {
      key: 'expires',
      title: t('api-key.col.expires'),
      render: (k) => (k.expires_at ? formatDateTime(k.expires_at) : t('api-key.expires.never')),
    },
    {
      key: 'last_used',
      title: t('api-key.col.lastUsed'),
      render: (k) => (k.last_used_at ? `${formatDateTime(k.last_used_at)} ${k.last_used_ip ?? ''}` : EMPTY),
    },
    {
      key: 'status',
      title: t('api-key.col.status'),
      render: (k) => <Tag color={STATUS_COLOR[statusOf(k)]}>{t(`api-key.status.${statusOf(k)}`)}</Tag>,
    },
    {
      key: 'actions',
      title: t('api-key.col.actions'),
      always: true,
      fixed: 'right',
      render: (k) =>
        can('control:api-key:delete') && !k.revoked_at ? (
          <ConfirmDeleteButton
            label={t('api-key.action.revoke')}
            title={t('api-key.revoke.title')}
            content={t('api-key.revoke.confirm', { name: k.name })}
            onConfirm={() => revoke.mutateAsync(k.id)}
          />
        ) : null,
    },
  ];

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('api-key.manager.title')}
        </Typography.Title>
      }
      extra={
        can('control:api-key:create') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="add-api-key">
            {t('api-key.list.add')}
          </Button>
        )
      }
    >
      <Alert type="info" showIcon message={t('api-key.manager.intro')} style={{ marginBottom: 16 }} />
      <ColumnChooserTable<ApiKey>
        configKey="api-key.manager.table"
        testId="api-key-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(k) => k.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
      {tenantId && <ApiKeyDialog tenantId={tenantId} open={adding} onClose={() => setAdding(false)} onCreated={setToken} />}
      <Modal
        open={token !== null}
        title={t('api-key.created.title')}
        onCancel={() => setToken(null)}
        footer={
          <Space>
            <Button
              type="primary"
              onClick={() => {
                void navigator.clipboard?.writeText(token ?? '').then(() => message.success(t('api-key.created.copied')));
              }}
            >
              {t('api-key.created.copy')}
            </Button>
            <Button onClick={() => setToken(null)}>{t('common.action.close')}</Button>
          </Space>
        }
      >
        <Alert type="warning" showIcon message={t('api-key.created.once')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph code copyable={false} data-testid="api-key-token" style={{ wordBreak: 'break-all' }}>
          {token}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
