import { z } from 'zod';
import type { PermissionKey } from '../permissions.ts';
import type { LiveKind } from '../schemas/data.ts';
import { defineRoute } from './define.ts';

/** The query of every socket: the session token (browsers cannot set headers on a WebSocket). */
const SocketQuery = z.object({ token: z.string().optional() });

/**
 * The console's one live channel (`socket: true`: it checks its token itself). A browser tab opens
 * one socket and multiplexes its subscriptions over it: devices' frames and decoded signals, the
 * message bell, a device's remote operations, the tenant's test runs (LiveClientMessage in,
 * LiveServerMessage out, schemas/data.ts). Each subscription is authorised on its own: its tenant,
 * its kind's permission key (LIVE_KIND_PERMISSION) and its device.
 */
export const LiveRoutes = {
  data: defineRoute({
    method: 'GET',
    path: '/live',
    query: SocketQuery,
    socket: true,
  }),
};

/** The key each kind of subscription needs (`messages`: any signed-in user, for their own messages). */
export const LIVE_KIND_PERMISSION = {
  frames: 'data-mgmt:things-data:query',
  signals: 'data-mgmt:things-data:query',
  messages: null,
  remote: 'things:message:query',
  'test-runs': 'test-mgmt:run:query',
} as const satisfies Record<LiveKind, PermissionKey | null>;
