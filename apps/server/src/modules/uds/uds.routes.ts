import { Routes } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import type { UdsService } from './uds.service.ts';

const R = Routes.uds;
const tags = ['uds'];
const more = { 502: errors[400], 504: errors[400] };
const withErrors = { tags, errors };
/** A request relayed to an ECU also answers 502 (the device's error) and 504 (no answer in time). */
const relayed = { tags, errors: { ...errors, ...more } };

/** UDS diagnosis and ECU upgrade of a device (spec §2 device tabs "UDS diagnosis", "ECU upgrade"). */
export function udsRoutes(root: LoggerheadApp, svc: UdsService) {
  const app = root as unknown as App;
  route(app, R.request, relayed, (req) => svc.request(tenantAuth(req), req.params.things_id, req.body.transport, req.body.pdu));
  route(app, R.readDtcs, relayed, (req) => svc.readDtcs(tenantAuth(req), req.params.things_id, req.body.transport, req.body.status_mask));
  route(app, R.clearDtcs, relayed, (req) => svc.clearDtcs(tenantAuth(req), req.params.things_id, req.body.transport, req.body.group));
  route(app, R.flash, withErrors, (req) =>
    svc.flash(tenantAuth(req), req.params.things_id, req.body.transport, req.body.address, req.body.firmware_file_id),
  );
  route(app, R.flashJob, withErrors, (req) => svc.job(tenantAuth(req), req.params.things_id, req.params.id));
  route(app, R.cancelFlash, withErrors, (req) => svc.cancel(tenantAuth(req), req.params.things_id, req.params.id));
}
