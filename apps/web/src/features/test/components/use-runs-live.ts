import type { TestRun } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { subscribeLive } from '../../../api/live-socket.ts';
import type { ScriptPage } from '../api/testmgmt.api.ts';
import { testKeys } from '../api/testmgmt.queries.ts';

type RunPage = Omit<ScriptPage, 'list'> & { list: TestRun[] };

/** A run's newer state replaces the listed one; false when the page does not hold it. */
export function mergeRun(page: RunPage | undefined, run: TestRun): { page: RunPage | undefined; found: boolean } {
  if (!page) return { page, found: false };
  const i = page.list.findIndex((r) => r.id === run.id);
  if (i < 0) return { page, found: false };
  const list = [...page.list];
  list[i] = run;
  return { page: { ...page, list }, found: true };
}

/**
 * Follows the tenant's runs on the tab's live channel (a `test-runs` subscription): each
 * pushed run replaces its row in the cached lists; a run no list holds (just started) refreshes them.
 */
export function useRunsLive(tenantId: string): boolean {
  const qc = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const live = subscribeLive(
      { kind: 'test-runs', tenant_id: tenantId },
      {
        onClose: () => setConnected(false),
        onMessage: (m) => {
          if (m.t === 'subscribed') setConnected(true);
          if (m.t === 'error') setConnected(false);
          if (m.t !== 'run') return;
          const run = m.run as TestRun;
          let seen = false;
          for (const [key, page] of qc.getQueriesData<RunPage>({ queryKey: [...testKeys.runs(tenantId), 'list'] })) {
            const merged = mergeRun(page, run);
            if (merged.found) {
              seen = true;
              qc.setQueryData(key, merged.page);
            }
          }
          if (!seen) void qc.invalidateQueries({ queryKey: testKeys.runs(tenantId) });
        },
      },
    );
    return () => live.close();
  }, [tenantId, qc]);
  return connected;
}
