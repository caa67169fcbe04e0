import {
  GENERAL_STORAGE_MAX_GB,
  GENERAL_STORAGE_MAX_RETENTION_DAYS,
  generalStorageAllowed,
  PACKAGE_NUMBER_FIELDS,
  type PackageNumberField,
  type PackageUpdate,
  StorageMode,
  type TenantPackage,
} from '@loggerhead/contract/schemas/billing.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Input, InputNumber, Radio, Skeleton, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../../lib/format.ts';
import { systemApi, systemKeys } from '../api/system.api.ts';

type QuickDeleteEntry = TenantPackage['quick_delete_things_list'][number];
type StorageValue = TenantPackage['special_storage'];

/** The unit shown after a package number (the others are counts). */
const UNITS: Partial<Record<PackageNumberField, string>> = {
  database_storage_space: 'GB',
  device_file_traffic_management: 'MB',
};

/**
 * A tenant's package (spec §3 user package) for the system manager: every number of the package, the
 * storage mode under the §4 rule (general only for short retention and small space) and the devices
 * whose data may be quick-deleted, at most the package's quick-delete count.
 */
export function TenantPackagePanel({ id }: { id: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const pkg = useQuery({ queryKey: systemKeys.tenantPackage(id), queryFn: ({ signal }) => systemApi.tenantPackage(id, signal) });
  const [edits, setEdits] = useState<Partial<Record<PackageNumberField, number | null>>>({});
  const [mode, setMode] = useState<StorageValue | undefined>(undefined);
  const [list, setList] = useState<QuickDeleteEntry[] | undefined>(undefined);
  const [adding, setAdding] = useState('');
  const save = useMutation({
    mutationFn: () => {
      const body: PackageUpdate = { ...edits };
      if (mode !== undefined) body.special_storage = mode;
      if (list !== undefined) body.quick_delete_things_list = list;
      return systemApi.updateTenantPackage(id, body);
    },
    onSuccess: (data) => {
      qc.setQueryData(systemKeys.tenantPackage(id), data);
      void qc.invalidateQueries({ queryKey: systemKeys.quotas(id) });
      setEdits({});
      setMode(undefined);
      setList(undefined);
      message.success(t('system.common.saved'));
    },
  });
  const data = pkg.data;
  if (!data) return <Skeleton active />;

  const value = (f: PackageNumberField) => (f in edits ? (edits[f] ?? null) : data[f]);
  const general = generalStorageAllowed(value('maximum_data_retention_days'), value('database_storage_space'));
  const chosenMode = mode ?? data.special_storage;
  // The server turns a general package that breaks the rule into an exclusive one; the form shows it so.
  const shownMode = chosenMode === StorageMode.general && !general ? StorageMode.exclusive : chosenMode;
  const entries = list ?? data.quick_delete_things_list;
  const quickLimit = value('quick_delete_things_num');
  const over = quickLimit !== null && entries.length > quickLimit;
  const addEntry = () => {
    const thingId = adding.trim();
    if (!thingId || entries.some((e) => e.third_things_id === thingId)) return;
    setList([...entries, { third_things_id: thingId, info_model_name: '', info_model_id: '' }]);
    setAdding('');
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="tenant-package">
      <Descriptions size="small" column={2} bordered>
        {PACKAGE_NUMBER_FIELDS.map((f) => (
          <Descriptions.Item key={f} label={t(`system.package.${f}`)}>
            <InputNumber
              aria-label={t(`system.package.${f}`)}
              data-testid={`package-${f}`}
              min={0}
              max={2_147_483_647}
              precision={0}
              value={value(f)}
              placeholder={t('system.quota.unlimited')}
              addonAfter={UNITS[f] ?? (f === 'maximum_data_retention_days' ? t('system.quota.days') : undefined)}
              onChange={(v) => setEdits((e) => ({ ...e, [f]: v ?? null }))}
              style={{ width: 150 }}
            />
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Space orientation="vertical" size={4}>
        <Typography.Text strong>{t('system.package.storage')}</Typography.Text>
        <Radio.Group
          data-testid="package-storage"
          value={shownMode}
          onChange={(e) => setMode(e.target.value as StorageValue)}
          options={[
            { value: StorageMode.general, label: t('system.package.storage.general'), disabled: !general },
            { value: StorageMode.exclusive, label: t('system.package.storage.exclusive') },
            { value: StorageMode.quickDelete, label: t('system.package.storage.quickDelete') },
          ]}
        />
        <Typography.Text type="secondary">
          {t('system.package.storage.rule', { days: GENERAL_STORAGE_MAX_RETENTION_DAYS, gb: GENERAL_STORAGE_MAX_GB })}
        </Typography.Text>
      </Space>
      <Space orientation="vertical" size={4} style={{ width: '100%' }}>
        <Typography.Text strong>{t('system.package.quickList')}</Typography.Text>
        <Typography.Text type={over ? 'danger' : 'secondary'} data-testid="package-quick-count">
          {t('system.package.quickCount', { n: entries.length, limit: quickLimit ?? t('system.quota.unlimited') })}
        </Typography.Text>
        <Table<QuickDeleteEntry>
          size="small"
          rowKey="third_things_id"
          data-testid="package-quick-list"
          dataSource={entries}
          pagination={{ pageSize: 5, pageSizeOptions: [5, 10, 15, 20, 25], showSizeChanger: true, size: 'small' }}
          columns={[
            {
              title: t('system.package.deviceId'),
              dataIndex: 'third_things_id',
              render: (v: string) => <span className="lh-mono">{v}</span>,
            },
            { title: t('system.package.deviceType'), dataIndex: 'info_model_name', render: (v: string) => v || EMPTY },
            {
              title: t('system.common.actions'),
              key: 'actions',
              width: 100,
              render: (_v, r) => (
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() => setList(entries.filter((e) => e.third_things_id !== r.third_things_id))}
                >
                  {t('system.package.remove')}
                </Button>
              ),
            },
          ]}
        />
        <Space.Compact style={{ maxWidth: 420 }}>
          <Input
            aria-label={t('system.package.deviceId')}
            data-testid="package-quick-add-id"
            placeholder={t('system.package.deviceId')}
            maxLength={64}
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
            onPressEnter={addEntry}
          />
          <Button onClick={addEntry} disabled={!adding.trim()} data-testid="package-quick-add">
            {t('system.package.add')}
          </Button>
        </Space.Compact>
      </Space>
      <Button type="primary" loading={save.isPending} disabled={over} onClick={() => save.mutate()} data-testid="package-save">
        {t('system.detail.save')}
      </Button>
    </Space>
  );
}
