import { Routes } from '@loggerhead/contract';
import type { WebSocket } from 'ws';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { socketRoute } from '../../lib/route.ts';
import { socketRegistry } from '../../live/socket-registry.ts';

/**
 * `GET /v1/messages/live?token=…` (WebSocket): the signed-in user's unread count is pushed as
 * `{"t":"unread","unread":n}` whenever a message arrives or read states change, so the bell updates
 * without a reload (the console still polls every 60 s as the fallback). One listener per server
 * fans out to the sockets of each user. A socket lives as long as its session and rights
 * (live/socket-registry.ts).
 */
export function messageLiveRoutes(app: LoggerheadApp, ctx: AppContext) {
  const sockets = new Map<string, Set<WebSocket>>();
  const push = (e: { tenantId: string; userId: string; unread: number }) => {
    const body = JSON.stringify({ t: 'unread', unread: e.unread });
    for (const s of sockets.get(`${e.tenantId}/${e.userId}`) ?? []) if (s.readyState === s.OPEN) s.send(body);
  };
  // Push listeners: they also hear the messages other server copies stored (lib/events.ts).
  const offs = [ctx.events.onPush('message.created', push), ctx.events.onPush('message.updated', push)];
  app.addHook('onClose', async () => {
    for (const off of offs) off();
  });

  const registry = socketRegistry(app);
  socketRoute(app, Routes.live.messages, async (socket, req) => {
    const tracked = await registry.admit(socket, req.query.token);
    if (!tracked) return;
    const { auth } = tracked;
    const key = `${auth.tenantId}/${auth.userId}`;
    const set = sockets.get(key) ?? new Set<WebSocket>();
    sockets.set(key, set);
    set.add(socket);
    // Ended by the registry (session gone, rights changed, expired) or closed: no push after that.
    tracked.onEnd(() => {
      set.delete(socket);
      if (!set.size && sockets.get(key) === set) sockets.delete(key);
    });
    socket.send(JSON.stringify({ t: 'ready' }));
  });
}
