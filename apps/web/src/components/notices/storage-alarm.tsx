import { WarningOutlined } from '@ant-design/icons';
import type { Health } from '@loggerhead/contract/schemas/health.ts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { buildUrl } from '../../api/client.ts';

/**
 * The server's health as the console reads it, every 30 s: `/v1/health` answers 503 with the same
 * body when something is down, so the body is read whatever the status. Null until it answers.
 */
export function useServerHealth(): Pick<Health, 'disk' | 'db'> | null {
  const q = useQuery({
    queryKey: ['server-health'],
    queryFn: async () => {
      const res = await fetch(buildUrl('/v1/health'));
      return (await res.json()) as Health;
    },
    refetchInterval: 30_000,
    retry: false,
  });
  return q.data ?? null;
}

/**
 * An alarm strip under the header while the server refuses device uplinks for want of disk
 * (`disk: "low"`, DISK_FREE_MIN_MB): loggers keep their data and send it again once space is freed.
 * Renders nothing otherwise.
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
