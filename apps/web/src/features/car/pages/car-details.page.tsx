import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Vehicle } from '@loggerhead/contract/schemas/things.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Flex, Result, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { carKeys, vehicleQuery } from '../api/car.queries.ts';
import { CarFormDialog } from '../components/car-form-dialog.tsx';
import { MONO } from '../components/mono.ts';

type Channel = Vehicle['channels'][number];

/** /Container/CarManager/CarDetails?id=… — one vehicle and the device channels it is bound to. */
export default function CarDetailsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const { tenantId } = useSession();
  const id = params.get('id') ?? '';
  const vehicle = useQuery(vehicleQuery(tenantId, id));
  const [editing, setEditing] = useState<Vehicle | null>(null);
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/Container/CarManager')}>
      {t('car.details.back')}
    </Button>
  );
  if (!id) return <Result status="warning" title={t('car.details.title')} subTitle={t('car.details.missing')} extra={back} />;
  if (vehicle.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (!vehicle.data) return <Result status="404" title={t('car.details.notFound')} extra={back} />;
  const v = vehicle.data;
  return (
    <Card variant="borderless">
      <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          aria-label={t('car.details.back')}
          onClick={() => navigate('/Container/CarManager')}
        />
        <Typography.Title level={4} style={{ margin: 0, flex: 1 }}>
          {v.name}
        </Typography.Title>
        {mayCall(Routes.things.updateVehicle) && (
          <Button icon={<EditOutlined />} onClick={() => setEditing(v)}>
            {t('car.action.edit')}
          </Button>
        )}
      </Flex>
      <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
        <Descriptions.Item label={t('car.col.name')}>{v.name}</Descriptions.Item>
        <Descriptions.Item label={t('car.col.vin')}>
          <span style={{ fontFamily: MONO }}>{v.vin || '--'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('car.col.description')} span={{ xs: 1, md: 2 }}>
          {v.description || '--'}
        </Descriptions.Item>
        <Descriptions.Item label={t('car.col.createdAt')}>{formatDateTime(v.created_at)}</Descriptions.Item>
        <Descriptions.Item label={t('car.col.updatedAt')}>{formatDateTime(v.updated_at)}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('car.details.channels')}
      </Typography.Title>
      <Table<Channel>
        size="small"
        rowKey={(c) => `${c.things_id}-${c.channel}`}
        pagination={false}
        dataSource={v.channels}
        columns={[
          { key: 'i', title: '#', width: 56, render: (_x, _c, i) => i + 1 },
          { key: 'name', title: t('car.form.channelName'), dataIndex: 'name' },
          {
            key: 'device',
            title: t('car.details.deviceId'),
            render: (_x, c) => <span style={{ fontFamily: MONO }}>{c.third_things_id ?? '--'}</span>,
          },
          { key: 'channel', title: t('car.form.deviceChannel'), render: (_x, c) => `CAN${c.channel}` },
          {
            key: 'open',
            title: t('car.col.actions'),
            render: (_x, c) => (
              <Link to={`/Container/HomePage/DeviceDetails?id=${encodeURIComponent(c.things_id)}`}>{t('car.details.openDevice')}</Link>
            ),
          },
        ]}
      />
      {tenantId && (
        <CarFormDialog
          tenantId={tenantId}
          target={editing}
          onClose={() => setEditing(null)}
          onSaved={(next) => qc.setQueryData(carKeys.one(tenantId, id), next)}
        />
      )}
    </Card>
  );
}
