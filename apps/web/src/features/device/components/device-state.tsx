import { Badge, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../../lib/format.ts';

const SD_COLOURS: Record<string, string> = { ok: 'green', absent: 'default', full: 'orange', error: 'red', readonly: 'gold' };

export function OnlineBadge({ online, connection }: { online: boolean; connection: number }) {
  const { t } = useTranslation();
  if (online) return <Badge status="success" text={t('device.state.online')} data-testid="device-online" />;
  if (connection === 0) return <Badge status="default" text={t('device.state.never')} data-testid="device-online" />;
  return <Badge status="error" text={t('device.state.offline')} data-testid="device-online" />;
}

export function SdTag({ state }: { state: string | null }) {
  const { t, i18n } = useTranslation();
  if (!state) return <>{EMPTY}</>;
  const key = `device.sd.${state}`;
  return <Tag color={SD_COLOURS[state] ?? 'default'}>{i18n.exists(key) ? t(key) : state}</Tag>;
}
