import { WarningOutlined } from '@ant-design/icons';
import type { Health } from '@loggerhead/contract/schemas/health.ts';
import { useTranslation } from 'react-i18next';

/**
 * An alarm strip under the header while the server refuses device uplinks for want of disk
 * (`disk: "low"`, DISK_FREE_MIN_MB): loggers keep their data and send it again once space is freed.
 * Renders nothing otherwise. Loaded only when the alarm shows (app-layout.tsx): the home page carries
 * the health read alone (server-health.ts).
 */
export function StorageAlarm({ health }: { health: Pick<Health, 'disk'> | null }) {
  const { t } = useTranslation();
  if (health?.disk !== 'low') return null;
  return (
    <div className="lh-storage-alarm" role="alert" data-testid="storage-alarm">
      <WarningOutlined /> <span>{t('common.storage.low')}</span>
    </div>
  );
}
