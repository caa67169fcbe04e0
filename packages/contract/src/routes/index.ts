/**
 * The route table: every API route the server registers from it and the web client calls through
 * it (`defineRoute` in ./define.ts). Converted modules so far — one file each here:
 *
 * - things (devices, device types, vehicles): ./things.ts
 * - mapping (DBC files, signal strategies, channel bindings): ./mapping.ts
 *
 * Not yet converted (still declared in their server route files and re-declared by the web):
 * every other module under apps/server/src/modules.
 */
import { MappingRoutes } from './mapping.ts';
import { ThingsRoutes } from './things.ts';

export * from './define.ts';
export { MappingRoutes } from './mapping.ts';
export { ThingsRoutes } from './things.ts';

export const Routes = {
  things: ThingsRoutes,
  mapping: MappingRoutes,
} as const;
