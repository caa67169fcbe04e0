import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useQuery } from '@tanstack/react-query';
import { Empty, Flex, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../../api/client.ts';
import { OnlineBadge } from '../../../features/device/components/device-state.tsx';
import type { DeviceTabProps } from './tab-props.ts';

const detailsOf = (id: string) => `/Container/HomePage/DeviceDetails?id=${encodeURIComponent(id)}`;

/**
 * A device's place in the gateway hierarchy (decision 0140): its gateways up to the top, and the
 * children it forwards for, each a link to its own details.
 */
export default function ChildrenTab({ thing, tenantId }: DeviceTabProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const params = { tenant_id: tenantId, things_id: thing.id };
  const children = useQuery({
    queryKey: ['device', 'children', tenantId, thing.id, page.current, page.size],
    queryFn: ({ signal }) => call(Routes.things.children, { params, query: { current_page: page.current, page_size: page.size }, signal }),
    refetchInterval: 5000,
  });
  const parents = useQuery({
    queryKey: ['device', 'parents', tenantId, thing.id],
    queryFn: ({ signal }) => call(Routes.things.parents, { params, signal }),
  });
  const chain = [...(parents.data ?? [])].reverse();
  return (
    <Flex vertical gap={16} data-testid="device-children">
      <div>
        <Typography.Title level={5}>{t('device.children.gateways')}</Typography.Title>
        {chain.length ? (
          <Flex gap={8} wrap data-testid="device-parents">
            {chain.map((p, i) => (
              <span key={p.id}>
                {i > 0 && ' › '}
                <Link to={detailsOf(p.id)}>{p.name}</Link>
              </span>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('device.children.noGateway')}</Typography.Text>
        )}
      </div>
      <div>
        <Typography.Title level={5}>{t('device.children.title', { count: children.data?.total ?? 0 })}</Typography.Title>
        <Table<Thing>
          rowKey="id"
          size="small"
          loading={children.isFetching && !children.data}
          dataSource={children.data?.list ?? []}
          locale={{ emptyText: <Empty description={t('device.children.none')} /> }}
          pagination={{
            current: page.current,
            pageSize: page.size,
            total: children.data?.total ?? 0,
            size: 'small',
            onChange: (current, size) => setPage({ current, size }),
          }}
          columns={[
            { key: 'name', title: t('device.children.name'), render: (_v, c) => <Link to={detailsOf(c.id)}>{c.name}</Link> },
            {
              key: 'id',
              title: t('device.children.deviceId'),
              render: (_v, c) => <Typography.Text className="lh-mono">{c.third_things_id}</Typography.Text>,
            },
            {
              key: 'online',
              title: t('device.children.state'),
              render: (_v, c) => <OnlineBadge online={c.is_online} connection={c.connection_status} />,
            },
          ]}
        />
      </div>
    </Flex>
  );
}
