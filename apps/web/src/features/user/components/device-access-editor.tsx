import type { DeviceAccessEntry } from '@loggerhead/contract/schemas/accounts.ts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Radio, Space, Table } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type PickerItem, TransferPicker } from '../../../components/widgets/transfer-picker.tsx';
import { devicesQuery } from '../api/user.api.ts';
import { setAccess, withAccess } from './subuser-form.ts';

/**
 * Device permissions of a sub-user (spec §6): pick the tenant's devices in a transfer
 * picker, then set each one readable or read-write.
 */
export function DeviceAccessEditor({
  tenantId,
  value = [],
  onChange,
}: {
  tenantId: string | null;
  value?: DeviceAccessEntry[];
  onChange?: (v: DeviceAccessEntry[]) => void;
}) {
  const { t } = useTranslation();
  const devices = useQuery(devicesQuery(tenantId));
  const items: PickerItem[] = useMemo(
    () => (devices.data?.list ?? []).map((d) => ({ key: d.id, title: d.name, description: d.third_things_id })),
    [devices.data],
  );
  const names = useMemo(() => new Map(items.map((i) => [i.key, i])), [items]);

  if (devices.isError) return <Alert type="warning" showIcon title={t('user.subusers.devices.loadFailed')} />;

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12}>
      <TransferPicker
        testId="device-picker"
        items={items}
        value={value.map((d) => d.things_id)}
        onChange={(keys) => onChange?.(withAccess(keys, value))}
        titles={[t('user.subusers.devices.available'), t('user.subusers.devices.chosen')]}
        height={280}
      />
      <Table<DeviceAccessEntry>
        size="small"
        rowKey="things_id"
        dataSource={value}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: t('user.subusers.devices.none') }}
        columns={[
          {
            title: t('user.subusers.devices.device'),
            dataIndex: 'things_id',
            render: (id: string) => {
              const d = names.get(id);
              return d ? `${d.title} (${d.description})` : id;
            },
          },
          {
            title: t('user.subusers.devices.access'),
            dataIndex: 'access',
            width: 260,
            render: (access: 'read' | 'write', r) => (
              <Radio.Group
                size="small"
                value={access}
                onChange={(e) => onChange?.(setAccess(value, r.things_id, e.target.value))}
                options={[
                  { value: 'read', label: t('user.subusers.devices.read') },
                  { value: 'write', label: t('user.subusers.devices.write') },
                ]}
              />
            ),
          },
        ]}
      />
    </Space>
  );
}
