import type { AlertEvent } from '@loggerhead/contract';

// Events of the alert and fence modules on `ctx.events`, added by declaration merging.
declare module '../../lib/events.ts' {
  interface AppEvents {
    /** Trigger rules of a device were created, changed, enabled, disabled or deleted. */
    'alert.rules-changed': { tenantId: string; thingsId: string };
    /** An e-fence's shape or device bindings changed (or it was deleted). */
    'fence.changed': { tenantId: string; fenceId: string };
    /** A rule fired: a new alert event was stored. */
    'alert.event': { tenantId: string; event: AlertEvent };
  }
}
