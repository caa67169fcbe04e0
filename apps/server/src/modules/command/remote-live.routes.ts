import { Routes, SocketClose } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { assertPermission } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { socketRoute } from '../../lib/route.ts';
import { socketRegistry } from '../../live/socket-registry.ts';
import { inTenant, requireDevice } from '../things/things.access.ts';

/**
 * `GET /v1/things/tenants/{tenant_id}/things/{things_id}/remote/live?token=…` (WebSocket): the
 * device's remote operations as they happen — `{t: "command", command}` on every command state
 * change, `{t: "firmware", upgrade}` on upgrade states and progress, `{t: "ecu-flash", job}` on each
 * ECU flashing step. Browsers cannot set headers on a WebSocket, so the token comes in the query.
 * The socket lives as long as its session and its right to the device (live/socket-registry.ts).
 */
export function remoteLiveRoutes(app: LoggerheadApp, ctx: AppContext) {
  // One push listener per event for all sockets (they also hear the other server copies' events),
  // fanned out to the sockets watching each device.
  const watchers = new Map<string, Set<(m: unknown) => void>>();
  const to = (thingsId: string, m: unknown) => {
    for (const send of watchers.get(thingsId) ?? []) send(m);
  };
  const offs = [
    ctx.events.onPush('command.updated', (e) => to(e.thingsId, { t: 'command', command: e.command })),
    ctx.events.onPush('firmware.state', (e) => to(e.thingsId, { t: 'firmware', upgrade: e.upgrade })),
    ctx.events.onPush('ecu-flash.job', (e) => to(e.thingsId, { t: 'ecu-flash', job: e.job })),
  ];
  app.addHook('onClose', async () => {
    for (const off of offs) off();
  });
  const registry = socketRegistry(app);
  const R = Routes.live.remote;
  socketRoute(app, R, async (socket, req) => {
    const { tenant_id, things_id } = req.params;
    const send = (m: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    };
    const tracked = await registry.admit(socket, req.query.token);
    if (!tracked) return;
    /** Why the caller may not watch this device's operations now, or null when it may. */
    const refusal = async () => {
      try {
        const auth = inTenant(tracked.auth, tenant_id);
        assertPermission(auth, R.permission);
        await requireDevice(ctx.database.raw, auth, things_id, 'read');
        return null;
      } catch (e) {
        const b = e instanceof ApiError ? [e.body].flat()[0] : { code: 'http.500', message: 'error' };
        return { code: b.code, message: b.message };
      }
    };
    const refused = await refusal();
    if (refused) return tracked.end(SocketClose.accessWithdrawn, refused);
    // Gone while the device was checked.
    if (tracked.ended) return;
    const set = watchers.get(things_id) ?? new Set();
    watchers.set(things_id, set);
    set.add(send);
    // Ended by the registry (session gone, rights changed, expired) or closed: no push after that.
    tracked.onEnd(() => {
      set.delete(send);
      if (!set.size && watchers.get(things_id) === set) watchers.delete(things_id);
    });
    // The device deleted (or no longer readable) while the session goes on: the socket closes.
    tracked.onAccessChanged(async (changed) => {
      if (changed && changed !== things_id) return;
      const lost = await refusal();
      if (lost) tracked.end(SocketClose.accessWithdrawn, lost);
    });
    send({ t: 'subscribed', things_id });
  });
}
