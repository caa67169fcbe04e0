import { type LiveClientMessage, LiveClientMessageSchema, type LiveServerMessage, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../app.ts';
import { type Auth, assertPermission } from '../lib/auth.ts';
import { ApiError } from '../lib/errors.ts';
import { socketRoute } from '../lib/route.ts';
import { requireDevice } from '../modules/things/things.access.ts';
import { socketRegistry } from './socket-registry.ts';

/**
 * `GET /v1/live?token=…` (WebSocket). Browsers cannot set headers on a WebSocket, so the session
 * token comes in the query. Messages: LiveClientMessage in, LiveServerMessage out (contract). The
 * socket lives as long as its session and rights (live/socket-registry.ts).
 */
export function liveRoutes(app: LoggerheadApp, ctx: AppContext) {
  const registry = socketRegistry(app);
  /** Why `auth` may not read the device's live data now, or null when it may. */
  const deviceRefusal = async (auth: Auth, thingsId: string): Promise<{ code: string; message: string } | null> => {
    try {
      assertPermission(auth, Routes.live.data.permission);
      await requireDevice(ctx.database.raw, auth, thingsId, 'read');
      return null;
    } catch (e) {
      const b = e instanceof ApiError ? [e.body].flat()[0] : { code: 'http.500', message: 'error' };
      return { code: b.code, message: b.message };
    }
  };
  socketRoute(app, Routes.live.data, async (socket, req) => {
    const send = (m: LiveServerMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    };
    const subs = new Map<string, () => void>();
    const signalSubs = new Map<string, () => void>();
    const unsubscribeAll = () => {
      for (const off of subs.values()) off();
      subs.clear();
      for (const off of signalSubs.values()) off();
      signalSubs.clear();
    };
    // Listen first: messages that arrive while the token is checked are handled after it.
    const early: Buffer[] = [];
    let ready: (raw: Buffer) => void = (raw) => early.push(raw);
    socket.on('message', (raw: Buffer) => ready(raw));
    socket.on('close', unsubscribeAll);
    const tracked = await registry.admit(socket, req.query.token);
    if (!tracked) return;
    const a = tracked.auth;
    // Ended (session gone, rights changed, expired): no frame or sample is sent after the error.
    tracked.onEnd(unsubscribeAll);
    // What the user may read changed while the session goes on: drop the devices it lost.
    tracked.onAccessChanged(async (changed) => {
      const ids = new Set([...subs.keys(), ...signalSubs.keys()]);
      for (const id of ids) {
        if (changed && id !== changed) continue;
        const refused = await deviceRefusal(a, id);
        if (!refused) continue;
        subs.get(id)?.();
        subs.delete(id);
        signalSubs.get(id)?.();
        signalSubs.delete(id);
        send({ t: 'error', ...refused, things_id: id });
      }
    });
    const handle = async (raw: Buffer) => {
      let msg: LiveClientMessage;
      try {
        msg = LiveClientMessageSchema.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        return send({ t: 'error', code: 'http.400', message: 'Bad message' });
      }
      if (msg.op === 'unsubscribe') {
        subs.get(msg.things_id)?.();
        subs.delete(msg.things_id);
        return;
      }
      if (msg.op === 'unsubscribe-signals') {
        signalSubs.get(msg.things_id)?.();
        signalSubs.delete(msg.things_id);
        return;
      }
      const refused = await deviceRefusal(a, msg.things_id);
      if (refused) return send({ t: 'error', ...refused });
      // Ended while the device was checked: nothing more is subscribed.
      if (tracked.ended) return;
      const sub = { send, buffered: () => socket.bufferedAmount };
      if (msg.op === 'subscribe-signals') {
        signalSubs.get(msg.things_id)?.();
        signalSubs.set(
          msg.things_id,
          ctx.ingest.live.subscribeSignals(a.tenantId, msg.things_id, sub, { channels: msg.channels, signals: msg.signals }),
        );
        return send({ t: 'signals-subscribed', things_id: msg.things_id });
      }
      subs.get(msg.things_id)?.();
      subs.set(msg.things_id, ctx.ingest.live.subscribe(msg.things_id, sub, msg.channels, msg.ids));
      send({ t: 'subscribed', things_id: msg.things_id });
    };
    ready = (raw) => void handle(raw);
    for (const raw of early.splice(0)) await handle(raw);
  });
}
