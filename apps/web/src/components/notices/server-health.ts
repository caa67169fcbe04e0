import type { Health } from '@loggerhead/contract/schemas/health.ts';
import { useQuery } from '@tanstack/react-query';
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
