import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Modal, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { thingsApi } from '../../../api/things.api.ts';
import { thingKeys } from '../../../api/things.queries.ts';
import { CopyButton } from '../../../components/data-view/copy-text.tsx';
import { can } from '../../../session/can.ts';

interface Props {
  tenantId: string;
  thing: Thing | null;
  onClose: () => void;
}

/** The device's MQTT credentials (ID + things_key) with copy, and regenerate after a warning. */
export function DeviceKeyDialog({ tenantId, thing, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [key, setKey] = useState<{ id: string; key: string } | null>(null);
  const current = thing && key?.id === thing.id ? key.key : (thing?.things_key ?? '');

  const regenerate = useMutation({
    mutationFn: (id: string) => thingsApi.regenerateKey(tenantId, id),
    onSuccess: (next) => {
      setKey({ id: next.id, key: next.things_key });
      void qc.invalidateQueries({ queryKey: thingKeys.devices() });
      void message.success(t('home.key.regenerated'));
    },
  });

  return (
    <Modal
      open={thing !== null}
      title={t('home.key.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.action.close')}
        </Button>
      }
      width={560}
    >
      {thing && (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('home.key.text')}
          </Typography.Paragraph>
          <Descriptions column={1} bordered size="small" styles={{ label: { width: 120, whiteSpace: 'nowrap' } }}>
            <Descriptions.Item label={t('home.key.deviceId')}>
              <Space>
                <Typography.Text code data-testid="key-device-id">
                  {thing.third_things_id}
                </Typography.Text>
                <CopyButton text={thing.third_things_id} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('home.key.key')}>
              <Space>
                <Typography.Text code data-testid="things-key">
                  {current}
                </Typography.Text>
                <CopyButton text={current} testId="copy-key" />
              </Space>
            </Descriptions.Item>
          </Descriptions>
          {thing.access === 'write' && can(Routes.things.regenerateKey.permission) && (
            <Popconfirm
              title={t('home.key.regenerate')}
              description={<div style={{ maxWidth: 320 }}>{t('home.key.regenerateConfirm')}</div>}
              okText={t('common.action.ok')}
              cancelText={t('common.action.cancel')}
              onConfirm={() => regenerate.mutate(thing.id)}
            >
              <Button danger loading={regenerate.isPending} data-testid="regenerate-key">
                {t('home.key.regenerate')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </Modal>
  );
}
