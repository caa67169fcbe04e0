import { PlusOutlined } from '@ant-design/icons';
import type { FunctionBlock } from '@loggerhead/contract/schemas/models.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Popconfirm, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { blocksQuery, modelApi, modelKeys, publicBlocksQuery } from '../api/model.api.ts';
import { FunctionBlockDialog } from './function-block-dialog.tsx';
import { VALUE_TYPE_KEYS } from './typed-value.tsx';

/** The tenant's function blocks (20 a page) and the public ones (10 a page), spec §9. */
export function FunctionBlockPanel({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const own = useQuery(blocksQuery(tenantId));
  const pub = useQuery(publicBlocksQuery());
  const [editing, setEditing] = useState<FunctionBlock | null | undefined>(undefined);
  const remove = useMutation({
    mutationFn: (id: string) => modelApi.removeBlock(tenantId, id),
    onSuccess: () => {
      message.success(t('device-type.model.deleted'));
      void qc.invalidateQueries({ queryKey: modelKeys.all });
    },
  });
  const columns = (mine: boolean) => [
    {
      key: 'name',
      title: t('device-type.model.block.name'),
      render: (_v: unknown, b: FunctionBlock) => <Typography.Text strong>{b.name}</Typography.Text>,
    },
    { key: 'display_name', title: t('device-type.model.block.displayName'), dataIndex: 'display_name' },
    {
      key: 'status',
      title: t('device-type.model.block.status'),
      render: (_v: unknown, b: FunctionBlock) =>
        b.json_schema.status.map((p) => (
          <Tag key={p.identifier}>
            {p.identifier}: {t(`device-type.model.type.${VALUE_TYPE_KEYS[p.data_type]}`)}
          </Tag>
        )),
    },
    {
      key: 'operations',
      title: t('device-type.model.block.operations'),
      render: (_v: unknown, b: FunctionBlock) => b.json_schema.operations.map((o) => <Tag key={o.identifier}>{o.identifier}</Tag>),
    },
    { key: 'models', title: t('device-type.model.block.models'), dataIndex: 'models_count', align: 'right' as const },
    ...(mine
      ? [
          {
            key: 'actions',
            title: t('device-type.col.actions'),
            render: (_v: unknown, b: FunctionBlock) => (
              <Flex gap={4}>
                <Button type="link" size="small" onClick={() => setEditing(b)}>
                  {t('device-type.action.edit')}
                </Button>
                <Popconfirm title={t('device-type.model.block.confirmDelete')} onConfirm={() => remove.mutate(b.id)}>
                  <Button type="link" size="small" danger>
                    {t('device-type.action.delete')}
                  </Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <Flex justify="flex-end" style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="add-function-block">
          {t('device-type.model.block.add')}
        </Button>
      </Flex>
      <Table<FunctionBlock>
        data-testid="function-block-table"
        rowKey="id"
        size="middle"
        loading={own.isFetching && !own.data}
        dataSource={own.data?.list ?? []}
        pagination={{ pageSize: 20, size: 'small' }}
        columns={columns(true)}
      />
      <Typography.Title level={5}>{t('device-type.model.block.public')}</Typography.Title>
      <Table<FunctionBlock>
        rowKey="id"
        size="small"
        dataSource={pub.data?.list ?? []}
        pagination={{ pageSize: 10, size: 'small' }}
        columns={columns(false)}
      />
      {editing !== undefined && <FunctionBlockDialog tenantId={tenantId} block={editing} onClose={() => setEditing(undefined)} />}
    </>
  );
}
