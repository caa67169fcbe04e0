import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { Badge, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../../lib/format.ts';

const SD_COLOURS: Record<string, string> = { ok: 'green', absent: 'default', full: 'orange', error: 'red', readonly: 'gold' };

/** Online, offline, or never connected (connection_status 0). */
export function OnlineState({ thing }: { thing: Pick<Thing, 'is_online' | 'connection_status'> }) {
  const { t } = useTranslation();
  if (thing.is_online) return <Badge status="success" text={t('home.state.online')} />;
  if (thing.connection_status === 0) return <Badge status="default" text={t('home.state.never')} />;
  return <Badge status="error" text={t('home.state.offline')} />;
}

export function SdCardState({ state }: { state: string | null }) {
  const { t, i18n } = useTranslation();
  if (!state) return <>{EMPTY}</>;
  const key = `home.sd.${state}`;
  return <Tag color={SD_COLOURS[state] ?? 'default'}>{i18n.exists(key) ? t(key) : state}</Tag>;
}

/** CAN channels of the device, green when the device reports them enabled (channel_enable bit mask). */
export function ChannelTags({ thing }: { thing: Pick<Thing, 'can_channels' | 'channel_enable'> }) {
  if (!thing.can_channels) return <>{EMPTY}</>;
  return (
    <Space size={2} wrap>
      {Array.from({ length: thing.can_channels }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: channels are identified by their index.
        <Tag key={i} color={thing.channel_enable & (1 << i) ? 'green' : 'default'} style={{ marginInlineEnd: 0 }}>
          CAN{i}
        </Tag>
      ))}
    </Space>
  );
}
