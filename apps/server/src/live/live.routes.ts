import {
  LIVE_MAX_SUBSCRIPTIONS,
  type LiveClientMessage,
  LiveClientMessageSchema,
  type LiveServerMessage,
  Routes,
} from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../app.ts';
import { ApiError } from '../lib/errors.ts';
import { socketRoute } from '../lib/route.ts';
import { requireDevice } from '../modules/things/things.access.ts';
import { type LiveOpened, type LiveSub, liveKinds, refusalOf } from './live-channel.ts';
import { socketRegistry } from './socket-registry.ts';

/**
 * `GET /v1/live?token=…` (WebSocket): the console's one live channel. Browsers cannot set headers on
 * a WebSocket, so the session token comes in the query. A tab multiplexes its subscriptions over the
 * one socket (LiveClientMessage in, LiveServerMessage out, contract); each is authorised on its own
 * by its kind (live-channel.ts), and refused or ended alone. The socket lives as long as its session
 * and rights (live/socket-registry.ts). Frames and decoded signals are served here (the live hub);
 * the message bell, remote operations and test runs by their modules.
 */
export function liveRoutes(app: LoggerheadApp, ctx: AppContext) {
  const registry = socketRegistry(app);
  const kinds = liveKinds(app);
  const device = async (sub: LiveSub, thingsId: string, open: () => () => void): Promise<LiveOpened> => {
    await requireDevice(ctx.database.raw, sub.auth, thingsId, 'read');
    return {
      stop: open(),
      thingsId,
      recheck: async (changed) => {
        if (changed && changed !== thingsId) return;
        await requireDevice(ctx.database.raw, sub.auth, thingsId, 'read');
      },
    };
  };
  kinds.add('frames', (sub, m) => device(sub, m.things_id, () => ctx.ingest.live.subscribe(m.things_id, sub, m.channels, m.ids)));
  kinds.add('signals', (sub, m) =>
    device(sub, m.things_id, () =>
      ctx.ingest.live.subscribeSignals(sub.auth.tenantId, m.things_id, sub, { channels: m.channels, signals: m.signals }),
    ),
  );

  socketRoute(app, Routes.live.data, async (socket, req) => {
    const send = (m: LiveServerMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    };
    const subs = new Map<string, LiveOpened>();
    /** The latest subscribe (or unsubscribe) of each id: a check that a newer one overtook is dropped. */
    const latest = new Map<string, number>();
    let seq = 0;
    const stop = (id: string) => {
      subs.get(id)?.stop();
      subs.delete(id);
    };
    const stopAll = () => {
      for (const s of subs.values()) s.stop();
      subs.clear();
      latest.clear();
    };
    // Listen first: messages that arrive while the token is checked are handled after it.
    const early: Buffer[] = [];
    let ready: (raw: Buffer) => void = (raw) => early.push(raw);
    socket.on('message', (raw: Buffer) => ready(raw));
    socket.on('close', stopAll);
    const tracked = await registry.admit(socket, req.query.token);
    if (!tracked) return;
    const auth = tracked.auth;
    // Ended (session gone, rights changed, expired): nothing is pushed after the error.
    tracked.onEnd(stopAll);
    // What the user may read changed while the session goes on: the subscriptions that lost it end.
    tracked.onAccessChanged(async (changed) => {
      for (const [id, s] of [...subs]) {
        if (!s.recheck) continue;
        try {
          await s.recheck(changed);
        } catch (e) {
          if (subs.get(id) !== s) continue;
          stop(id);
          latest.delete(id);
          send({ t: 'error', id, ...refusalOf(e), ...(s.thingsId ? { things_id: s.thingsId } : {}) });
        }
      }
    });
    const handle = async (raw: Buffer) => {
      let msg: LiveClientMessage;
      try {
        msg = LiveClientMessageSchema.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        return send({ t: 'error', code: 'http.400', message: 'Bad message' });
      }
      const { id } = msg;
      const mine = ++seq;
      latest.set(id, mine);
      // Unsubscribed, or subscribed anew (a new filter): the old subscription stops at once.
      stop(id);
      if (msg.op === 'unsubscribe') {
        latest.delete(id);
        return;
      }
      if (latest.size > LIVE_MAX_SUBSCRIPTIONS) {
        latest.delete(id);
        return send({ t: 'error', id, ...refusalOf(new ApiError(429, 'http.429', 'Too many subscriptions on one socket')) });
      }
      const sub: LiveSub = {
        auth,
        send: (m) => send({ ...m, id } as LiveServerMessage),
        buffered: () => socket.bufferedAmount,
      };
      let opened: LiveOpened;
      try {
        opened = await kinds.open(sub, msg);
      } catch (e) {
        if (latest.get(id) !== mine) return;
        latest.delete(id);
        const thingsId = 'things_id' in msg ? { things_id: msg.things_id } : {};
        return send({ t: 'error', id, ...refusalOf(e), ...thingsId });
      }
      // Ended, unsubscribed or replaced while it was checked: it never starts.
      if (tracked.ended || latest.get(id) !== mine) return opened.stop();
      subs.set(id, opened);
      send({
        t: 'subscribed',
        id,
        kind: msg.kind,
        ...(opened.thingsId ? { things_id: opened.thingsId } : {}),
        ...(opened.tenantId ? { tenant_id: opened.tenantId } : {}),
      });
    };
    ready = (raw) => void handle(raw);
    for (const raw of early.splice(0)) await handle(raw);
  });
}
