import { LIVE_KIND_PERMISSION } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { assertPermission } from '../../lib/auth.ts';
import { type LiveOut, liveKinds } from '../../live/live-channel.ts';
import { inTenant, requireDevice } from '../things/things.access.ts';

/**
 * A device's remote operations on the live channel (`kind: "remote"`, `tenant_id`, `things_id`):
 * `{t: "command", command}` on every command state change, `{t: "firmware", upgrade}` on upgrade
 * states and progress, `{t: "ecu-flash", job}` on each ECU flashing step. The subscription lives as
 * long as the session and the caller's right to the device.
 */
export function remoteLiveRoutes(app: LoggerheadApp, ctx: AppContext) {
  // One push listener per event for all subscriptions (they also hear the other server copies'
  // events), fanned out to the subscriptions watching each device.
  const watchers = new Map<string, Set<(m: LiveOut) => void>>();
  const to = (thingsId: string, m: LiveOut) => {
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
  liveKinds(app).add('remote', async (sub, m) => {
    const { tenant_id, things_id } = m;
    /** Throws when the caller may not watch this device's operations now. */
    const check = async () => {
      const auth = inTenant(sub.auth, tenant_id);
      assertPermission(auth, LIVE_KIND_PERMISSION.remote);
      await requireDevice(ctx.database.raw, auth, things_id, 'read');
    };
    await check();
    const set = watchers.get(things_id) ?? new Set();
    watchers.set(things_id, set);
    const send = (out: LiveOut) => sub.send(out);
    set.add(send);
    return {
      thingsId: things_id,
      tenantId: tenant_id,
      stop: () => {
        set.delete(send);
        if (!set.size && watchers.get(things_id) === set) watchers.delete(things_id);
      },
      // The device deleted (or no longer readable) while the session goes on: the subscription ends.
      recheck: async (changed) => {
        if (changed && changed !== things_id) return;
        await check();
      },
    };
  });
}
