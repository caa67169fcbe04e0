import { Routes, SocketClose, type TestRun } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { assertPermission } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { socketRoute } from '../../lib/route.ts';
import { socketRegistry } from '../../live/socket-registry.ts';
import { deviceAccess, inTenant, restrictedUser } from '../things/things.access.ts';

/**
 * `GET /v1/test-mgmt/tenants/{tenant_id}/runs/live?token=…` (WebSocket): `{t: "run", run}` whenever a
 * test run of the tenant changes state or progress, for the runs of devices the caller may read
 * (`test-mgmt:run:query`). Browsers cannot set headers on a WebSocket, so the token comes in the
 * query. The socket lives as long as its session and rights (live/socket-registry.ts).
 */
export function testmgmtLiveRoutes(app: LoggerheadApp, ctx: AppContext) {
  type Watcher = { send: (m: unknown) => void; sees: (thingsId: string) => Promise<boolean> };
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
  const registry = socketRegistry(app);
  const R = Routes.live.testRuns;
  socketRoute(app, R, async (socket, req) => {
    const { tenant_id } = req.params;
    const send = (m: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    };
    const tracked = await registry.admit(socket, req.query.token);
    if (!tracked) return;
    let auth: ReturnType<typeof inTenant>;
    try {
      auth = inTenant(tracked.auth, tenant_id);
      assertPermission(auth, R.permission);
    } catch (e) {
      const b = e instanceof ApiError ? [e.body].flat()[0] : { code: 'http.500', message: 'error' };
      return tracked.end(SocketClose.accessWithdrawn, { code: b.code, message: b.message });
    }
    if (tracked.ended) return;
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
    const w: Watcher = { send, sees };
    const set = watchers.get(auth.tenantId) ?? new Set<Watcher>();
    watchers.set(auth.tenantId, set);
    set.add(w);
    tracked.onEnd(() => {
      set.delete(w);
      if (!set.size && watchers.get(auth.tenantId) === set) watchers.delete(auth.tenantId);
    });
    tracked.onAccessChanged(async (changed) => {
      if (changed) cache.delete(changed);
      else cache.clear();
    });
    send({ t: 'subscribed', tenant_id: auth.tenantId });
  });
}
