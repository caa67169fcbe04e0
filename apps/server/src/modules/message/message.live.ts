import type { WebSocket } from 'ws';
import type { AppContext, LoggerheadApp } from '../../app.ts';

/**
 * `GET /v1/messages/live?token=…` (WebSocket): the signed-in user's unread count is pushed as
 * `{"t":"unread","unread":n}` whenever a message arrives or read states change, so the bell updates
 * without a reload (the console still polls every 60 s as the fallback). One listener per server
 * fans out to the sockets of each user.
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

  app.get('/v1/messages/live', { websocket: true, config: { auth: 'socket' }, schema: { hide: true } }, async (socket, req) => {
    // Listen for close first: the socket may go while the token is checked.
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    const token = (req.query as { token?: string }).token;
    const auth = token ? await ctx.control.authenticate(token).catch(() => null) : null;
    if (!auth) {
      socket.send(JSON.stringify({ t: 'error', code: 'http.401', message: 'Not signed in or the session has expired' }));
      socket.close(4401, 'unauthorized');
      return;
    }
    if (closed) return;
    const key = `${auth.tenantId}/${auth.userId}`;
    const set = sockets.get(key) ?? new Set<WebSocket>();
    sockets.set(key, set);
    set.add(socket);
    socket.on('close', () => {
      set.delete(socket);
      if (!set.size) sockets.delete(key);
    });
    socket.send(JSON.stringify({ t: 'ready' }));
  });
}
