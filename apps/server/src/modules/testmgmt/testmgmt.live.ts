import { LIVE_KIND_PERMISSION, type TestRun } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { assertPermission } from '../../lib/auth.ts';
import { type LiveOut, liveKinds } from '../../live/live-channel.ts';
import { deviceAccess, inTenant, restrictedUser } from '../things/things.access.ts';

/**
 * The tenant's test runs on the live channel (`kind: "test-runs"`, `tenant_id`): `{t: "run", run}`
 * whenever a test run of the tenant changes state or progress, for the runs of devices the caller
 * may read (`test-mgmt:run:query`). The subscription lives as long as the session and its rights.
 */
export function testmgmtLiveRoutes(app: LoggerheadApp, ctx: AppContext) {
  type Watcher = { send: (m: LiveOut) => void; sees: (thingsId: string) => Promise<boolean> };
  const watchers = new Map<string, Set<Watcher>>();
  const off = ctx.events.onPush('testmgmt.run', (e: { tenantId: string; thingsId: string; run: TestRun }) => {
    for (const w of watchers.get(e.tenantId) ?? [])
      void w
        .sees(e.thingsId)
        .then((ok) => {
          if (ok) w.send({ t: 'run', run: e.run });
        })
        .catch(() => {});
  });
  app.addHook('onClose', async () => {
    off();
  });
  liveKinds(app).add('test-runs', async (sub, m) => {
    const auth = inTenant(sub.auth, m.tenant_id);
    assertPermission(auth, LIVE_KIND_PERMISSION['test-runs']);
    // A sub-user sees the runs of the devices granted to it; what it may read is kept until its access changes.
    const restricted = restrictedUser(auth) !== null;
    const cache = new Map<string, boolean>();
    const sees = async (thingsId: string) => {
      if (!restricted) return true;
      let ok = cache.get(thingsId);
      if (ok === undefined) {
        ok = await deviceAccess(ctx.database.raw, auth, thingsId).then(
          () => true,
          () => false,
        );
        cache.set(thingsId, ok);
      }
      return ok;
    };
    const w: Watcher = { send: (out) => sub.send(out), sees };
    const set = watchers.get(auth.tenantId) ?? new Set<Watcher>();
    watchers.set(auth.tenantId, set);
    set.add(w);
    return {
      tenantId: auth.tenantId,
      stop: () => {
        set.delete(w);
        if (!set.size && watchers.get(auth.tenantId) === set) watchers.delete(auth.tenantId);
      },
      recheck: async (changed) => {
        if (changed) cache.delete(changed);
        else cache.clear();
      },
    };
  });
}
