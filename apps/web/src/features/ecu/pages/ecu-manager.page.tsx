import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Ecu } from '@loggerhead/contract/schemas/ecu.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ecuApi } from '../../../api/ecu.api.ts';
import { ecuKeys, ecusQuery } from '../../../api/ecu.queries.ts';
import { formatAddress } from '../../../lib/uds-pdu.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { EcuDialog } from '../components/ecu-dialog.tsx';
import { EcuFiles } from '../components/ecu-files.tsx';

/** ECUManager (spec §3): the tenant's ECUs with addresses and files; firmware packages and unlock files. */
export default function EcuManagerPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const client = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<Ecu | null>(null);
  const [open, setOpen] = useState(false);
  const tenant = tenantId ?? '';
  const ecus = useQuery(ecusQuery(tenant, keyword || undefined));
  const remove = useMutation({
    mutationFn: (id: string) => ecuApi.remove(tenant, id),
    onSuccess: () => client.invalidateQueries({ queryKey: ecuKeys.all }),
  });
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={4}>{t('ecu.manager.title')}</Typography.Title>
      <Card
        size="small"
        extra={
          mayCall(Routes.ecu.create) && (
            <Button
              type="primary"
              size="small"
              onClick={() => {
                setEditing(null);
                setOpen(true);
              }}
            >
              {t('ecu.create')}
            </Button>
          )
        }
        title={<Input.Search allowClear size="small" placeholder={t('ecu.search')} onSearch={setKeyword} style={{ width: 240 }} />}
      >
        <Table<Ecu>
          size="small"
          rowKey="id"
          data-testid="ecu-list"
          loading={ecus.isPending}
          dataSource={ecus.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { key: 'name', title: t('ecu.name'), render: (_v, e) => e.name },
            { key: 'type', title: t('ecu.frameType'), width: 100, render: (_v, e) => <Tag>{t(`ecu.frame.${e.frame_type}`)}</Tag> },
            {
              key: 'phys',
              title: t('ecu.physical'),
              width: 120,
              render: (_v, e) => <span className="lh-mono">{formatAddress(e.physical_address)}</span>,
            },
            {
              key: 'resp',
              title: t('ecu.response'),
              width: 120,
              render: (_v, e) => <span className="lh-mono">{formatAddress(e.response_address)}</span>,
            },
            {
              key: 'func',
              title: t('ecu.function'),
              width: 120,
              render: (_v, e) => <span className="lh-mono">{formatAddress(e.function_address)}</span>,
            },
            { key: 'dtc', title: t('ecu.dtcFile'), render: (_v, e) => e.dtc_file_name ?? '--' },
            { key: 'fw', title: t('ecu.firmwareFile'), render: (_v, e) => e.firmware_file_name ?? '--' },
            { key: 'unlock', title: t('ecu.unlockFile'), render: (_v, e) => e.unlock_file_name ?? '--' },
            {
              key: 'actions',
              width: 140,
              render: (_v, e) => (
                <Space size={4}>
                  {mayCall(Routes.ecu.update) && (
                    <Button
                      size="small"
                      type="link"
                      onClick={() => {
                        setEditing(e);
                        setOpen(true);
                      }}
                    >
                      {t('ecu.edit')}
                    </Button>
                  )}
                  {mayCall(Routes.ecu.remove) && (
                    <Popconfirm title={t('ecu.deleteConfirm', { name: e.name })} onConfirm={() => remove.mutateAsync(e.id)}>
                      <Button size="small" type="link" danger>
                        {t('ecu.delete')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <EcuFiles tenantId={tenant} type="firmware" title={t('ecu.files.firmware')} />
      <EcuFiles tenantId={tenant} type="unlock" title={t('ecu.files.unlock')} />
      <EcuDialog tenantId={tenant} ecu={editing} open={open} onClose={() => setOpen(false)} />
    </Flex>
  );
}
