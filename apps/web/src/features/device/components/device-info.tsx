import { EditOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { labelRegistryQuery } from '../../../api/labels.api.ts';
import { thingsApi } from '../../../api/things.api.ts';
import { thingKeys } from '../../../api/things.queries.ts';
import { CopyButton } from '../../../components/data-view/copy-text.tsx';
import { DeviceLabelEditor } from '../../../components/widgets/device-label-editor.tsx';
import { DeviceLabelTags } from '../../../components/widgets/device-label-tags.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { can, mayCall } from '../../../session/can.ts';
import { deviceApi } from '../api/device.api.ts';
import { deviceKeys } from '../api/device.queries.ts';

/** The device record and its access key (copy, regenerate) for users who may change it. */
export function DeviceInfo({ thing, tenantId }: { thing: Thing; tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const regenerate = useMutation({
    mutationFn: () => deviceApi.regenerateKey(tenantId, thing.id),
    onSuccess: (next) => {
      qc.setQueryData(deviceKeys.thing(tenantId, thing.id), next);
      void message.success(t('device.info.regenerated'));
    },
  });
  const mayReadLabels = can('tenant:label:query');
  const registry = useQuery(labelRegistryQuery(tenantId, mayReadLabels));
  const [editingLabels, setEditingLabels] = useState(false);
  const saveLabels = useMutation({
    mutationFn: (labels: Thing['labels']) => thingsApi.setLabels(tenantId, thing.id, labels),
    onSuccess: (next) => {
      qc.setQueryData(deviceKeys.thing(tenantId, thing.id), next);
      void qc.invalidateQueries({ queryKey: thingKeys.devices() });
      setEditingLabels(false);
      void message.success(t('device.info.labelsSaved'));
    },
  });
  const mayEditLabels = thing.access === 'write' && mayReadLabels && can('things:things:update');
  return (
    <Card title={t('device.info.title')} size="small">
      <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
        <Descriptions.Item label={t('device.info.name')}>{thing.name}</Descriptions.Item>
        <Descriptions.Item label={t('device.info.id')}>
          <Typography.Text className="lh-mono" copyable>
            {thing.third_things_id}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.info.type')}>{thing.info_model_name}</Descriptions.Item>
        <Descriptions.Item label={t('device.info.description')}>{thing.description || '--'}</Descriptions.Item>
        <Descriptions.Item label={t('device.info.createdAt')}>{formatDateTime(thing.created_at)}</Descriptions.Item>
        <Descriptions.Item label={t('device.info.labels')}>
          <Space size={4} wrap>
            <DeviceLabelTags labels={thing.labels} registry={registry.data} />
            {mayEditLabels && (
              <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditingLabels(true)} data-testid="edit-labels">
                {t('device.info.editLabels')}
              </Button>
            )}
          </Space>
        </Descriptions.Item>
        {thing.access === 'write' && (
          <Descriptions.Item label={t('device.info.key')}>
            <Space size={4}>
              <Typography.Text code className="lh-mono">
                {thing.things_key}
              </Typography.Text>
              <CopyButton text={thing.things_key} />
              {mayCall(Routes.things.regenerateKey) && (
                <Popconfirm
                  title={t('device.info.regenerate')}
                  description={<div style={{ maxWidth: 300 }}>{t('device.info.regenerateConfirm')}</div>}
                  okText={t('common.action.ok')}
                  cancelText={t('common.action.cancel')}
                  onConfirm={() => regenerate.mutate()}
                >
                  <Button danger loading={regenerate.isPending}>
                    {t('device.info.regenerate')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          </Descriptions.Item>
        )}
      </Descriptions>
      {mayEditLabels && (
        <DeviceLabelEditor
          open={editingLabels}
          labels={thing.labels}
          registry={registry.data}
          saving={saveLabels.isPending}
          onSave={(labels) => saveLabels.mutate(labels)}
          onClose={() => setEditingLabels(false)}
        />
      )}
    </Card>
  );
}
