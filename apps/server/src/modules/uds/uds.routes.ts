import {
  DtcClearSchema,
  DtcListSchema,
  DtcReadSchema,
  EcuFlashJobSchema,
  EcuFlashRequestSchema,
  TenantThingParamsSchema,
  UdsRequestSchema,
  UdsResultSchema,
  UuidSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import type { App } from '../../lib/fastify.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import type { UdsService } from './uds.service.ts';

const TenantThing = TenantThingParamsSchema;
const TenantThingId = TenantThing.extend({ id: UuidSchema });
const tags = ['uds'];
const base = '/v1/single-candtu/tenants/:tenant_id/things/:things_id';
const more = { 502: errors[400], 504: errors[400] };

/** UDS diagnosis and ECU upgrade of a device (spec §2 device tabs "UDS diagnosis", "ECU upgrade"). */
export function udsRoutes(root: LoggerheadApp, svc: UdsService) {
  const app = root as unknown as App;
  app.post(
    `${base}/uds/request`,
    {
      config: { permission: 'candtu:uds:execute' },
      schema: { tags, params: TenantThing, body: UdsRequestSchema, response: { 200: UdsResultSchema, ...errors, ...more } },
    },
    (req) => svc.request(tenantAuth(req), req.params.things_id, req.body.transport, req.body.pdu),
  );
  app.post(
    `${base}/uds/dtcs/read`,
    {
      config: { permission: 'candtu:uds:execute' },
      schema: { tags, params: TenantThing, body: DtcReadSchema, response: { 200: DtcListSchema, ...errors, ...more } },
    },
    (req) => svc.readDtcs(tenantAuth(req), req.params.things_id, req.body.transport, req.body.status_mask),
  );
  app.post(
    `${base}/uds/dtcs/clear`,
    {
      config: { permission: 'candtu:uds:execute' },
      schema: {
        tags,
        params: TenantThing,
        body: DtcClearSchema,
        response: { 200: z.object({ cleared: z.boolean() }), ...errors, ...more },
      },
    },
    (req) => svc.clearDtcs(tenantAuth(req), req.params.things_id, req.body.transport, req.body.group),
  );
  app.post(
    `${base}/ecu-upgrade`,
    {
      config: { permission: 'candtu:ecu:upgrade' },
      schema: { tags, params: TenantThing, body: EcuFlashRequestSchema, response: { 200: EcuFlashJobSchema, ...errors } },
    },
    (req) => svc.flash(tenantAuth(req), req.params.things_id, req.body.transport, req.body.address, req.body.firmware_file_id),
  );
  app.get(
    `${base}/ecu-upgrade/:id`,
    {
      config: { permission: 'candtu:ecu:query' },
      schema: { tags, params: TenantThingId, response: { 200: EcuFlashJobSchema, ...errors } },
    },
    (req) => svc.job(tenantAuth(req), req.params.things_id, req.params.id),
  );
  app.post(
    `${base}/ecu-upgrade/:id/cancel`,
    {
      config: { permission: 'candtu:ecu:upgrade' },
      schema: { tags, params: TenantThingId, response: { 200: EcuFlashJobSchema, ...errors } },
    },
    (req) => svc.cancel(tenantAuth(req), req.params.things_id, req.params.id),
  );
}
