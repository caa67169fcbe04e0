import type { AppContext, LoggerheadApp } from '../../app.ts';
import { type Auth, assertPermission } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { inTenant, requireDevice } from '../things/things.access.ts';

/**
 * `GET /v1/things/tenants/{tenant_id}/things/{things_id}/remote/live?token=…` (WebSocket): the
 * device's remote operations as they happen — `{t: "command", command}` on every command state
 * change, `{t: "firmware", upgrade}` on upgrade states and progress, `{t: "ecu-flash", job}` on each
 * ECU flashing step. Browsers cannot set headers on a WebSocket, so the token comes in the query.
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
  app.get(
    '/v1/things/tenants/:tenant_id/things/:things_id/remote/live',
    { websocket: true, config: { auth: 'socket' }, schema: { hide: true } },
    async (socket, req) => {
      const { tenant_id, things_id } = req.params as { tenant_id: string; things_id: string };
      const send = (m: unknown) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
      };
      const token = (req.query as { token?: string }).token;
      let auth: Auth | null = token ? await ctx.control.authenticate(token).catch(() => null) : null;
      try {
        if (!auth) throw new ApiError(401);
        auth = inTenant(auth, tenant_id);
        assertPermission(auth, 'things:message:query');
        await requireDevice(ctx.database.raw, auth, things_id, 'read');
      } catch (e) {
        const b = e instanceof ApiError ? [e.body].flat()[0] : { code: 'http.500', message: 'error' };
        send({ t: 'error', code: b.code, message: b.message });
        socket.close(b.code === 'http.401' ? 4401 : 4403, b.code);
        return;
      }
      // Gone while the token was checked: its close event has passed.
      if (socket.readyState !== socket.OPEN) return;
      const set = watchers.get(things_id) ?? new Set();
      watchers.set(things_id, set);
      set.add(send);
      socket.on('close', () => {
        set.delete(send);
        if (!set.size && watchers.get(things_id) === set) watchers.delete(things_id);
      });
      send({ t: 'subscribed', things_id });
    },
  );
}
