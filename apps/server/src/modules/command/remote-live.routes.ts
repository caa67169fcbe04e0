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
  app.get(
    '/v1/things/tenants/:tenant_id/things/:things_id/remote/live',
    { websocket: true, config: { public: true }, schema: { hide: true } },
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
      const offs = [
        ctx.events.on('command.updated', (e) => {
          if (e.thingsId === things_id) send({ t: 'command', command: e.command });
        }),
        ctx.events.on('firmware.state', (e) => {
          if (e.thingsId === things_id) send({ t: 'firmware', upgrade: e.upgrade });
        }),
        ctx.events.on('ecu-flash.job', (e) => {
          if (e.thingsId === things_id) send({ t: 'ecu-flash', job: e.job });
        }),
      ];
      socket.on('close', () => {
        for (const off of offs) off();
      });
      send({ t: 'subscribed', things_id });
    },
  );
}
