import { z } from 'zod';
import { DeviceParams, defineRoute, TenantParams } from './define.ts';

/** The query of every socket: the session token (browsers cannot set headers on a WebSocket). */
const SocketQuery = z.object({ token: z.string().optional() });

/** The console's WebSockets (`socket: true`: each checks its token, and its key if it names one, itself). */
export const LiveRoutes = {
  /**
   * Live data of the devices the socket subscribes to: raw frames and decoded signals
   * (LiveClientMessage in, LiveServerMessage out); `permission` is checked on each subscription.
   */
  data: defineRoute({
    method: 'GET',
    path: '/live',
    query: SocketQuery,
    permission: 'data-mgmt:things-data:query',
    socket: true,
  }),
  /** The caller's unread in-app messages: `{t: "ready"}`, then `{t: "unread", unread}` on every change. */
  messages: defineRoute({
    method: 'GET',
    path: '/messages/live',
    query: SocketQuery,
    socket: true,
  }),
  /**
   * A device's remote operations as they happen: `{t: "subscribed"}`, then `{t: "command", command}`
   * on every command state change, `{t: "firmware", upgrade}` on upgrade states and progress,
   * `{t: "ecu-flash", job}` on each ECU flashing step.
   */
  remote: defineRoute({
    method: 'GET',
    path: '/things/tenants/:tenant_id/things/:things_id/remote/live',
    params: DeviceParams,
    query: SocketQuery,
    permission: 'things:message:query',
    socket: true,
  }),
  /**
   * The tenant's test runs as they change: `{t: "subscribed", tenant_id}`, then `{t: "run", run}` on
   * every state or progress change of a run of a device the caller may read.
   */
  testRuns: defineRoute({
    method: 'GET',
    path: '/test-mgmt/tenants/:tenant_id/runs/live',
    params: TenantParams,
    query: SocketQuery,
    permission: 'test-mgmt:run:query',
    socket: true,
  }),
};
