import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeLive } from '../../api/live-socket.ts';
import { shellKeys } from './shell.queries.ts';

/**
 * New messages arrive without a reload: the server pushes the unread count on the tab's live channel
 * (a `messages` subscription) and the inbox queries are fetched again. The 60 s poll stays as the
 * fallback; a dropped channel reconnects with back-off.
 */
export function useMessagePush(tenantId: string | null, userId: string | null) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!tenantId || !userId || typeof WebSocket === 'undefined') return;
    const live = subscribeLive(
      { kind: 'messages' },
      {
        onMessage: (m) => {
          if (m.t === 'unread') void qc.invalidateQueries({ queryKey: shellKeys.messages() });
        },
      },
    );
    return () => live.close();
  }, [tenantId, userId, qc]);
}
