import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { openLiveSocket } from '../../api/live-socket.ts';
import { shellKeys } from './shell.queries.ts';

/**
 * New messages arrive without a reload: the server pushes the unread count over
 * `/v1/messages/live` and the inbox queries are fetched again. The 60 s poll stays as the
 * fallback; a dropped socket reconnects with back-off (up to 30 s).
 */
export function useMessagePush(tenantId: string | null, userId: string | null) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!tenantId || !userId || typeof WebSocket === 'undefined') return;
    const live = openLiveSocket<{ t?: string }>({
      path: Routes.live.messages.path,
      retryMs: 1000,
      maxRetryMs: 30_000,
      onMessage: (m) => {
        if (m.t === 'ready') live.resetBackoff();
        if (m.t === 'unread') void qc.invalidateQueries({ queryKey: shellKeys.messages() });
      },
    });
    return () => live.close();
  }, [tenantId, userId, qc]);
}
