import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Fence } from '@loggerhead/contract/schemas/fence.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Modal, Popconfirm, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { efenceApi, efenceKeys, fenceDevicesQuery, fenceListQuery } from '../../../api/efence.api.ts';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';

const editorHref = (id?: string) => `/Container/EFenceManager/EFenceEditor${id ? `?id=${encodeURIComponent(id)}` : ''}`;

/** /Container/EFenceManager — the tenant's electronic fences: list, delete, bind devices. */
export default function EfenceManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [page, setPage] = useState<PageState>(firstPage());
  const [name, setName] = useState('');
  const [binding, setBinding] = useState<Fence | null>(null);
  const q = useQuery(fenceListQuery(tenantId, { name: name || undefined, current_page: page.page, page_size: page.size }));
  const refresh = () => qc.invalidateQueries({ queryKey: efenceKeys.tenant(tenantId) });
  const remove = useMutation({
    mutationFn: (id: string) => efenceApi.remove(tenantId as string, id),
    onSuccess: () => {
      message.success(t('efence.manager.deleted'));
      return refresh();
    },
  });

  return (
    <Card variant="borderless" title={t('efence.manager.title')} data-testid="efence-manager">
      <Space style={{ marginBottom: 12 }} wrap>
        <Input.Search
          allowClear
          placeholder={t('efence.field.name')}
          onSearch={(v) => {
            setName(v.trim());
            setPage((p) => firstPage(p.size));
          }}
          style={{ width: 240 }}
        />
        {mayCall(Routes.fence.create) && (
          <Link to={editorHref()}>
            <Button type="primary" data-testid="efence-add">
              {t('efence.manager.add')}
            </Button>
          </Link>
        )}
      </Space>
      <Table<Fence>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={false}
        columns={[
          { title: t('efence.field.name'), dataIndex: 'name', render: (n: string, f) => <Link to={editorHref(f.id)}>{n}</Link> },
          {
            title: t('efence.field.type'),
            key: 'type',
            render: (_, f) => (
              <Tag>
                {f.type === 'border'
                  ? t('efence.shape.border')
                  : f.region?.shape === 'circle'
                    ? t('efence.shape.circle')
                    : t('efence.shape.polygon')}
              </Tag>
            ),
          },
          { title: t('efence.field.devices'), key: 'devices', render: (_, f) => f.things_ids.length },
          { title: t('efence.field.rules'), dataIndex: 'rule_count' },
          { title: t('efence.field.description'), dataIndex: 'description', ellipsis: true },
          { title: t('efence.field.updated'), dataIndex: 'updated_at', render: (v: string) => formatDateTime(v) },
          {
            title: t('efence.manager.actions'),
            key: 'actions',
            render: (_, f) => (
              <Space>
                {mayCall(Routes.fence.update) && <Link to={editorHref(f.id)}>{t('efence.manager.edit')}</Link>}
                {mayCall(Routes.fence.bind) && (
                  <Button size="small" type="link" onClick={() => setBinding(f)} data-testid="efence-bind">
                    {t('efence.manager.bind')}
                  </Button>
                )}
                {!mayCall(Routes.fence.remove) ? null : f.rule_count > 0 ? (
                  <Tooltip title={t('errors.fence.in-use')}>
                    <Button size="small" type="link" danger disabled>
                      {t('efence.manager.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <Popconfirm title={t('efence.manager.confirmDelete')} onConfirm={() => remove.mutate(f.id)}>
                    <Button size="small" type="link" danger data-testid="efence-delete">
                      {t('efence.manager.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <div style={{ marginTop: 8 }}>
        <Paginator value={page} total={q.data?.total ?? 0} onChange={setPage} />
      </div>
      {binding && tenantId && <BindDialog tenantId={tenantId} fence={binding} onClose={() => setBinding(null)} onDone={refresh} />}
    </Card>
  );
}

function BindDialog({ tenantId, fence, onClose, onDone }: { tenantId: string; fence: Fence; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const devices = useQuery(fenceDevicesQuery(tenantId));
  const [ids, setIds] = useState<string[]>(fence.things_ids);
  const save = useMutation({
    mutationFn: () => efenceApi.bind(tenantId, fence.id, ids),
    onSuccess: () => {
      onDone();
      onClose();
    },
  });
  return (
    <Modal
      open
      title={t('efence.manager.bindTitle', { name: fence.name })}
      onCancel={onClose}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        loading={devices.isFetching}
        value={ids}
        onChange={setIds}
        optionFilterProp="label"
        placeholder={t('efence.manager.pickDevices')}
        options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.name ?? d.id }))}
        data-testid="efence-bind-devices"
      />
    </Modal>
  );
}
