import { type LiveClientMessage, LiveClientMessageSchema, type LiveServerMessage } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../app.ts';
import { type Auth, assertPermission } from '../lib/auth.ts';
import { ApiError } from '../lib/errors.ts';
import { requireDevice } from '../modules/things/things.access.ts';

/**
 * `GET /v1/live?token=…` (WebSocket). Browsers cannot set headers on a WebSocket, so the session
 * token comes in the query. Messages: LiveClientMessage in, LiveServerMessage out (contract).
 */
export function liveRoutes(app: LoggerheadApp, ctx: AppContext) {
  // Decoded samples reach the hub only while some browser watches signals.
  ctx.ingest.live.setSignalFeed((publish) => ctx.events.on('signals.decoded', publish));
  app.get('/v1/live', { websocket: true, config: { auth: 'socket' }, schema: { hide: true } }, async (socket, req) => {
    const send = (m: LiveServerMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    };
    const subs = new Map<string, () => void>();
    const signalSubs = new Map<string, () => void>();
    let auth: Auth | null = null;
    // Listen first: messages that arrive while the token is checked are handled after it.
    const early: Buffer[] = [];
    let ready: (raw: Buffer) => void = (raw) => early.push(raw);
    socket.on('message', (raw: Buffer) => ready(raw));
    socket.on('close', () => {
      for (const off of subs.values()) off();
      subs.clear();
      for (const off of signalSubs.values()) off();
      signalSubs.clear();
    });
    const token = (req.query as { token?: string }).token;
    auth = token ? await ctx.control.authenticate(token).catch(() => null) : null;
    if (!auth) {
      send({ t: 'error', code: 'http.401', message: 'Not signed in or the session has expired' });
      socket.close(4401, 'unauthorized');
      return;
    }
    const a = auth;
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
      try {
        assertPermission(a, 'data-mgmt:things-data:query');
        await requireDevice(ctx.database.raw, a, msg.things_id, 'read');
      } catch (e) {
        const b = e instanceof ApiError ? (Array.isArray(e.body) ? e.body[0] : e.body) : { code: 'http.500', message: 'error' };
        return send({ t: 'error', code: b.code, message: b.message });
      }
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
