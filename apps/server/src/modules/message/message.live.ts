import type { AppContext, LoggerheadApp } from '../../app.ts';
import { type LiveSub, liveKinds } from '../../live/live-channel.ts';

/**
 * The message bell on the live channel (`kind: "messages"`): the signed-in user's unread count is
 * pushed as `{t: "unread", unread}` whenever a message arrives or read states change, so the bell
 * updates without a reload (the console still polls every 60 s as the fallback). One listener per
 * server fans out to the subscriptions of each user; any signed-in user may follow its own messages.
 */
export function messageLiveRoutes(app: LoggerheadApp, ctx: AppContext) {
  const watchers = new Map<string, Set<LiveSub>>();
  const push = (e: { tenantId: string; userId: string; unread: number }) => {
    for (const sub of watchers.get(`${e.tenantId}/${e.userId}`) ?? []) sub.send({ t: 'unread', unread: e.unread });
  };
  // Push listeners: they also hear the messages other server copies stored (lib/events.ts).
  const offs = [ctx.events.onPush('message.created', push), ctx.events.onPush('message.updated', push)];
  app.addHook('onClose', async () => {
    for (const off of offs) off();
  });

  liveKinds(app).add('messages', async (sub) => {
    const key = `${sub.auth.tenantId}/${sub.auth.userId}`;
    const set = watchers.get(key) ?? new Set<LiveSub>();
    watchers.set(key, set);
    set.add(sub);
    return {
      stop: () => {
        set.delete(sub);
        if (!set.size && watchers.get(key) === set) watchers.delete(key);
      },
    };
  });
}
