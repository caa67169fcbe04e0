import type { Notice } from '@loggerhead/contract/schemas/notice.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { activeNoticesQuery, shellApi, shellKeys } from './shell.queries.ts';

const CLOSED_KEY = 'closedNotices';

/** Notices closed "for now" stay closed for the rest of this browser session. */
function readClosed(): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(CLOSED_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

/**
 * The announcement for the bar and the upgrade notice for the dialog (spec §2, §4):
 * each can be closed for now or hidden for good (per user, on the server).
 */
export function useNotices(userId: string | null) {
  const qc = useQueryClient();
  const notices = useQuery(activeNoticesQuery(userId));
  const [closed, setClosed] = useState<string[]>(readClosed);
  const hide = useMutation({
    mutationFn: (id: string) => shellApi.hideNotice(id, userId ?? ''),
    onSettled: () => qc.invalidateQueries({ queryKey: shellKeys.notices(userId) }),
  });

  const open = (notices.data ?? []).filter((n) => n.isShow && !closed.includes(n.id));
  const close = (id: string) => {
    const next = [...closed, id];
    setClosed(next);
    try {
      sessionStorage.setItem(CLOSED_KEY, JSON.stringify(next));
    } catch {}
  };
  return {
    notice: open.find((n) => n.kind === 'notice') ?? null,
    upgrade: open.find((n) => n.kind === 'upgrade') ?? null,
    close,
    neverShow: (n: Notice) => {
      close(n.id);
      hide.mutate(n.id);
    },
  };
}
