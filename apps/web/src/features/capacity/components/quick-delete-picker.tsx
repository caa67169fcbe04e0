import { Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceRef } from '../api/capacity.api.ts';

/** Spec §9: quick-delete picker pages of 5, 10, 15, 20 or 25, default 5. */
const SIZES = [5, 10, 15, 20, 25];

/** Picks the devices whose data may be quick-deleted, at most `limit` of them. */
export function QuickDeletePicker({
  devices,
  value = [],
  onChange,
  limit,
  loading,
}: {
  devices: DeviceRef[];
  value?: string[];
  onChange?: (ids: string[]) => void;
  limit: number;
  loading: boolean;
}) {
  const { t } = useTranslation();
  const [size, setSize] = useState(5);
  const full = value.length >= limit;
  return (
    <div data-testid="quick-delete-picker">
      <Typography.Text type={value.length > limit ? 'danger' : 'secondary'}>
        {t('capacity.picker.count', { n: value.length, limit })}
      </Typography.Text>
      <Table<DeviceRef>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={devices}
        pagination={{
          pageSize: size,
          pageSizeOptions: SIZES,
          showSizeChanger: true,
          size: 'small',
          onShowSizeChange: (_c, s) => setSize(s),
        }}
        rowSelection={{
          selectedRowKeys: value,
          onChange: (keys) => onChange?.(keys as string[]),
          // Once the limit is reached only ticked rows can change (be unticked).
          getCheckboxProps: (d) => ({ disabled: full && !value.includes(d.id) }),
          hideSelectAll: true,
        }}
        columns={[
          { key: 'name', title: t('capacity.table.device'), dataIndex: 'name' },
          { key: 'id', title: t('capacity.picker.deviceId'), render: (_v, d) => <span className="lh-mono">{d.third_things_id}</span> },
          { key: 'type', title: t('capacity.picker.type'), dataIndex: 'info_model_name' },
        ]}
      />
    </div>
  );
}
