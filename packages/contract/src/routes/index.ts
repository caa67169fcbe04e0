/**
 * The route table: every API route the server registers from it and the web client calls through
 * it (`defineRoute` in ./define.ts). Converted modules so far — one file each here:
 *
 * - things (devices, device types, vehicles): ./things.ts
 *
 * Not yet converted (still declared in their server route files and re-declared by the web):
 * every other module under apps/server/src/modules.
 */
import { ThingsRoutes } from './things.ts';

export * from './define.ts';
export { ThingsRoutes } from './things.ts';

export const Routes = {
  things: ThingsRoutes,
} as const;
