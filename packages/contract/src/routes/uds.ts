import { z } from 'zod';
import {
  DtcClearSchema,
  DtcListSchema,
  DtcReadSchema,
  EcuFlashJobSchema,
  EcuFlashRequestSchema,
  UdsRequestSchema,
  UdsResultSchema,
} from '../schemas/uds.ts';
import { DeviceIdParams, DeviceParams, defineRoute } from './define.ts';

const base = '/single-candtu/tenants/:tenant_id/things/:things_id';

/** UDS diagnosis and ECU upgrade of a device (spec §2 device tabs "UDS diagnosis", "ECU upgrade"). */
export const UdsRoutes = {
  request: defineRoute({
    method: 'POST',
    path: `${base}/uds/request`,
    params: DeviceParams,
    body: UdsRequestSchema,
    response: UdsResultSchema,
    permission: 'candtu:uds:execute',
  }),
  readDtcs: defineRoute({
    method: 'POST',
    path: `${base}/uds/dtcs/read`,
    params: DeviceParams,
    body: DtcReadSchema,
    response: DtcListSchema,
    permission: 'candtu:uds:execute',
  }),
  clearDtcs: defineRoute({
    method: 'POST',
    path: `${base}/uds/dtcs/clear`,
    params: DeviceParams,
    body: DtcClearSchema,
    response: z.object({ cleared: z.boolean() }),
    permission: 'candtu:uds:execute',
  }),
  flash: defineRoute({
    method: 'POST',
    path: `${base}/ecu-upgrade`,
    params: DeviceParams,
    body: EcuFlashRequestSchema,
    response: EcuFlashJobSchema,
    permission: 'candtu:ecu:upgrade',
  }),
  flashJob: defineRoute({
    method: 'GET',
    path: `${base}/ecu-upgrade/:id`,
    params: DeviceIdParams,
    response: EcuFlashJobSchema,
    permission: 'candtu:ecu:query',
  }),
  cancelFlash: defineRoute({
    method: 'POST',
    path: `${base}/ecu-upgrade/:id/cancel`,
    params: DeviceIdParams,
    response: EcuFlashJobSchema,
    permission: 'candtu:ecu:upgrade',
  }),
};
