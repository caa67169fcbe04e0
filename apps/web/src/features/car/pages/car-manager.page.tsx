import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Vehicle } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { carApi } from '../api/car.api.ts';
import { carKeys, vehicleListQuery } from '../api/car.queries.ts';
import { CarFormDialog } from '../components/car-form-dialog.tsx';
import { VehicleChannelTags } from '../components/channel-tags.tsx';
import { MONO } from '../components/mono.ts';

const detailsPath = (id: string) => `/Container/CarManager/CarDetails?id=${encodeURIComponent(id)}`;

/** Vehicle management (spec §1, §2): vehicles with name, VIN and channels bound to device CAN channels. */
export default function CarManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage());
  const [target, setTarget] = useState<Vehicle | 'new' | null>(null);
  const list = useQuery(vehicleListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));

  const remove = useMutation({
    mutationFn: (id: string) => carApi.remove(tenantId as string, id),
    onSuccess: () => {
      void message.success(t('car.delete.done'));
      return qc.invalidateQueries({ queryKey: carKeys.vehicles() });
    },
  });

  const columns: ChooserColumn<Vehicle>[] = [
    { key: 'name', title: t('car.col.name'), render: (v) => <Typography.Link strong>{v.name}</Typography.Link> },
    { key: 'vin', title: t('car.col.vin'), render: (v) => <span style={{ fontFamily: MONO }}>{v.vin || '--'}</span> },
    { key: 'channels', title: t('car.col.channels'), render: (v) => <VehicleChannelTags channels={v.channels} /> },
    { key: 'description', title: t('car.col.description'), ellipsis: true, width: 220 },
    { key: 'created_at', title: t('car.col.createdAt'), render: (v) => formatDateTime(v.created_at) },
    { key: 'updated_at', title: t('car.col.updatedAt'), defaultHidden: true, render: (v) => formatDateTime(v.updated_at) },
    {
      key: 'actions',
      title: t('car.col.actions'),
      always: true,
      fixed: 'right',
      render: (v) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button type="link" size="small" onClick={() => navigate(detailsPath(v.id))}>
            {t('car.action.details')}
          </Button>
          {mayCall(Routes.things.updateVehicle) && (
            <Button type="link" size="small" onClick={() => setTarget(v)}>
              {t('car.action.edit')}
            </Button>
          )}
          {mayCall(Routes.things.removeVehicle) && (
            <ConfirmDeleteButton
              label={t('car.action.delete')}
              title={t('car.delete.title')}
              content={t('car.delete.confirm', { name: v.name })}
              onConfirm={() => remove.mutateAsync(v.id)}
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
          {t('car.manager.title')}
        </Typography.Title>
      }
      extra={
        mayCall(Routes.things.createVehicle) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-vehicle">
            {t('car.list.add')}
          </Button>
        )
      }
    >
      <ColumnChooserTable<Vehicle>
        configKey="car.manager.table"
        testId="vehicle-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(v) => v.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        onRowClick={(v) => navigate(detailsPath(v.id))}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('car.list.search')}
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
      {tenantId && <CarFormDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />}
    </Card>
  );
}
