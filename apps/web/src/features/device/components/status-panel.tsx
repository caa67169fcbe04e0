import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDateTime, formatNumber } from '../../../lib/format.ts';
import { statusQuery } from '../api/device.queries.ts';
import { OnlineBadge, SdTag } from './device-state.tsx';

/** Spec §2 device management → status: online, SD card, firmware, channel enable, and what is stored. */
export function StatusPanel({ thing, tenantId }: { thing: Thing; tenantId: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const status = useQuery(statusQuery(tenantId, thing.id));
  const s = status.data;
  const channels = s?.channels ?? Array.from({ length: thing.can_channels }, (_, i) => ({ index: i, name: `CAN${i}`, enabled: false }));
  return (
    <Card title={t('device.status.title')} size="small" loading={status.isPending} data-testid="device-status">
      <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
        <Descriptions.Item label={t('device.status.online')}>
          <OnlineBadge online={s?.is_online ?? thing.is_online} connection={s?.connection_status ?? thing.connection_status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.status.sd')}>
          <SdTag state={s?.sd_card_status ?? thing.sd_card_status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.status.firmware')}>{s?.firmware ?? thing.firmware ?? '--'}</Descriptions.Item>
        <Descriptions.Item label={t('device.status.server')}>{s?.server ?? thing.server ?? '--'}</Descriptions.Item>
        <Descriptions.Item label={t('device.status.lastSeen')}>{formatDateTime(s?.last_seen_at ?? thing.last_seen_at)}</Descriptions.Item>
        <Descriptions.Item label={t('device.status.lastFrame')}>{formatDateTime(s?.last_frame_at)}</Descriptions.Item>
        <Descriptions.Item label={t('device.status.framesStored')}>
          <span data-testid="frames-stored">{formatNumber(s?.frames_stored, lang)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.status.bytesStored')}>{formatBytes(s?.bytes_stored)}</Descriptions.Item>
        <Descriptions.Item label={t('device.status.malformed')}>{formatNumber(s?.malformed_count, lang)}</Descriptions.Item>
        <Descriptions.Item label={t('device.status.channels')} span={{ xs: 1, md: 2, xl: 3 }}>
          <Space size={4} wrap>
            {channels.map((c) => (
              <Tag key={c.index} color={c.enabled ? 'green' : 'default'}>
                {c.name} · {c.enabled ? t('device.status.enabled') : t('device.status.disabled')}
              </Tag>
            ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
