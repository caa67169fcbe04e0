import { ConfigResultSchema, DeviceConfigSchema, DeviceConfigStateSchema } from '../schemas/command.ts';
import { DeviceParams, defineRoute } from './define.ts';

const base = '/things/tenants/:tenant_id/things/:things_id/config';

/**
 * Device configuration: read from / write to the logger, last known, export and import (JSON ≤ 10 MB).
 * `read`, `write` and `import` answer 200 with the device's result, or 202 while the device has not
 * answered yet (the same body).
 */
export const ConfigRoutes = {
  read: defineRoute({
    method: 'GET',
    path: `${base}/device`,
    params: DeviceParams,
    response: ConfigResultSchema,
    permission: 'things:things:command',
  }),
  write: defineRoute({
    method: 'PUT',
    path: base,
    params: DeviceParams,
    body: DeviceConfigSchema,
    response: ConfigResultSchema,
    permission: 'things:things:command',
  }),
  last: defineRoute({
    method: 'GET',
    path: base,
    params: DeviceParams,
    response: DeviceConfigStateSchema,
    permission: 'things:things:queryone',
  }),
  /** A JSON file (`config.json`). */
  export: defineRoute({
    method: 'GET',
    path: `${base}/export`,
    params: DeviceParams,
    permission: 'things:things:export',
  }),
  /** Body: a JSON file as multipart, or the JSON itself. */
  import: defineRoute({
    method: 'POST',
    path: `${base}/import`,
    params: DeviceParams,
    response: ConfigResultSchema,
    permission: 'things:things:command',
  }),
};
