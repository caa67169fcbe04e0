import type { RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import type { Group } from '@loggerhead/contract/schemas/org.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, DatePicker, Form, Modal, Select, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groupApi, groupKeys } from '../api/group.api.ts';

type UpgradeResult = RouteResponse<typeof Routes.firmware.notify>['results'][number];

/**
 * A firmware upgrade with a device group as the target (spec §1 groups as targets): every member the
 * user may see gets an upgrade, now or at a chosen time; a member of another type, offline or busy, or
 * one the user may only read, is answered on its own line with the reason.
 */
export function GroupUpgradeDialog({ tenantId, group, onClose }: { tenantId: string; group: Group | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [firmwareId, setFirmwareId] = useState<string | undefined>();
  const [at, setAt] = useState<Dayjs | null>(null);
  const open = group !== null;
  const firmwares = useQuery({
    queryKey: groupKeys.firmwares(tenantId),
    queryFn: ({ signal }) => groupApi.firmwares(tenantId, signal),
    enabled: open,
  });
  const devices = useQuery({
    queryKey: groupKeys.devices(tenantId),
    queryFn: ({ signal }) => groupApi.devices(tenantId, signal),
    enabled: open,
  });
  const names = new Map((devices.data ?? []).map((d) => [d.id, d.name]));
  const upgrade = useMutation({
    mutationFn: () => {
      const f = firmwares.data?.list.find((x) => x.firmware_id === firmwareId);
      if (!f || !group) throw new Error('no firmware');
      return groupApi.upgrade(tenantId, group.id, f, at?.valueOf());
    },
  });
  const close = () => {
    setFirmwareId(undefined);
    setAt(null);
    upgrade.reset();
    onClose();
  };
  const results = upgrade.data?.results;

  return (
    <Modal
      open={open}
      title={t('group.upgrade.title', { name: group?.name ?? '' })}
      okText={t('group.upgrade.start')}
      cancelText={t(results ? 'group.upgrade.close' : 'common.action.cancel')}
      okButtonProps={{ disabled: !firmwareId || Boolean(results), 'data-testid': 'group-upgrade-start' }}
      confirmLoading={upgrade.isPending}
      onOk={() => upgrade.mutate()}
      onCancel={close}
      width={720}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('group.upgrade.hint')} style={{ marginBottom: 16 }} />
      <Form layout="vertical" name="group-upgrade">
        <Form.Item label={t('group.upgrade.firmware')} required>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="group-upgrade-firmware"
            loading={firmwares.isLoading}
            value={firmwareId}
            onChange={setFirmwareId}
            disabled={Boolean(results)}
            placeholder={t('group.upgrade.firmwarePick')}
            notFoundContent={t('group.upgrade.noFirmware')}
            options={(firmwares.data?.list ?? []).map((f) => ({
              value: f.firmware_id,
              label: `${f.model_name} · ${f.version}${f.description ? ` · ${f.description}` : ''}`,
            }))}
          />
        </Form.Item>
        <Form.Item label={t('group.upgrade.at')} extra={t('group.upgrade.atHelp')}>
          <DatePicker
            showTime
            value={at}
            onChange={setAt}
            disabled={Boolean(results)}
            disabledDate={(d) => d.isBefore(Date.now(), 'day')}
          />
        </Form.Item>
      </Form>
      {results && (
        <Table<UpgradeResult>
          size="small"
          rowKey="things_id"
          data-testid="group-upgrade-results"
          dataSource={results}
          pagination={results.length > 10 ? { pageSize: 10, size: 'small' } : false}
          columns={[
            { title: t('group.upgrade.device'), dataIndex: 'things_id', render: (id: string) => names.get(id) ?? id },
            {
              title: t('group.upgrade.result'),
              key: 'result',
              render: (_v, r) =>
                r.code ? (
                  <Tag color="red">{t(`errors.${r.code}`, { defaultValue: r.message ?? r.code })}</Tag>
                ) : (
                  <Tag color="blue">{t(at ? 'group.upgrade.scheduled' : 'group.upgrade.started')}</Tag>
                ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
