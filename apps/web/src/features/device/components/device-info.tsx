import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/data-view/copy-text.tsx';
import { formatDateTime } from '../../../lib/format.ts';
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
        {thing.access === 'write' && (
          <Descriptions.Item label={t('device.info.key')}>
            <Space size={4}>
              <Typography.Text code className="lh-mono">
                {thing.things_key}
              </Typography.Text>
              <CopyButton text={thing.things_key} />
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
            </Space>
          </Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}
