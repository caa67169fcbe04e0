import { parseTopic } from '@loggerhead/can/protocol/topics.ts';
import { Operations, SendCanParamsSchema, UDS_PDU_RE } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import type { DeviceIdentity } from '../../ingest/device-directory.ts';
import { ApiError } from '../../lib/errors.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { uploadsService } from '../data/uploads.service.ts';
import { ecuRoutes } from '../ecu/ecu.routes.ts';
import { ecuService } from '../ecu/ecu.service.ts';
import { firmwareRoutes } from '../firmware/firmware.routes.ts';
import { firmwareService } from '../firmware/firmware.service.ts';
import { recallRoutes } from '../recall/recall.routes.ts';
import { recallService } from '../recall/recall.service.ts';
import { udsRoutes } from '../uds/uds.routes.ts';
import { supportsFd, udsService } from '../uds/uds.service.ts';
import { commandRoutes } from './command.routes.ts';
import { commandService, zodToApiError } from './command.service.ts';
import { configRoutes } from './config.routes.ts';
import { configService, validateSetConfig } from './config.service.ts';
import { remoteLiveRoutes } from './remote-live.routes.ts';

type DeviceClient = { device?: DeviceIdentity };

/**
 * Remote operations: device commands and the features built on them. Wires the command service
 * to the uplink pipeline (responses), the embedded broker (PUBACKs, re-subscriptions) and a
 * one-second sweeper (time-outs, expiries, queued commands of devices back online).
 */
/** How often commands past their deadline are ended and queued ones sent to online devices. */
const COMMAND_SWEEP_MS = 1000;

export async function remoteModule(app: LoggerheadApp, ctx: AppContext) {
  const commands = commandService({ raw: ctx.database.raw, broker: ctx.broker, events: ctx.events, log: app.log });

  commands.registerValidator(Operations.sendCan, (params) => {
    const r = SendCanParamsSchema.safeParse(params);
    if (!r.success) throw zodToApiError(r.error);
    return r.data as unknown as Record<string, unknown>;
  });

  commands.registerValidator(Operations.setConfig, validateSetConfig);
  // A raw uds.request is checked like the UDS API's: hex PDU, CAN FD only where the device has it.
  commands.registerValidator(Operations.udsRequest, (params, target) => {
    if (typeof params.pdu !== 'string' || !UDS_PDU_RE.test(params.pdu.trim()))
      throw new ApiError(400, 'command.invalid-params', 'operation_params.pdu: hex bytes separated by spaces', {
        field: 'operation_params.pdu',
      });
    if (params.fd === true && !supportsFd(target))
      throw new ApiError(400, 'uds.canfd-not-supported', undefined, { field: 'operation_params.fd' });
    return params;
  });

  ctx.ingest.pipeline.onResponse((device, resp) => commands.handleResponse(device, resp));

  const aedes = ctx.broker.aedes;
  if (aedes) {
    aedes.on('ack', (packet, client) => {
      const d = (client as DeviceClient | null)?.device;
      const p = packet as { topic?: string; payload?: Uint8Array } | undefined;
      if (!d || !p?.topic || parseTopic(p.topic)?.kind !== 'cmd' || !p.payload) return;
      void commands.handleAck(d.thingsId, p.payload).catch((err) => app.log.warn({ err }, 'command ack not recorded'));
    });
    aedes.on('subscribe', (subs, client) => {
      const d = (client as DeviceClient | null)?.device;
      if (!d || !subs.some((s) => s.topic.includes('/down/'))) return;
      void commands.flush(d.thingsId, d.deviceId).catch((err) => app.log.warn({ err }, 'queued commands not sent'));
    });
  }

  // Commands past their deadline time out, and queued ones go to devices online for a whole tick:
  // once a second across the server copies.
  runPeriodically(app, ctx, {
    name: 'command-sweep',
    everyMs: COMMAND_SWEEP_MS,
    work: () => Promise.all([commands.sweep(), firmware.sweep()]),
  });

  commandRoutes(app, commands);
  await configRoutes(app, configService(ctx.database.raw, commands));
  const uploads = uploadsService(ctx.database.raw, ctx.ingest.writer, ctx.ingest.devices, ctx.config.maxUploadBytes * 4, (tenantId) =>
    ctx.quota.limit(tenantId, 'concurrent_data_jobs'),
  );
  const recall = recallService({
    raw: ctx.database.raw,
    commands,
    files: ctx.files,
    publicUrl: () => ctx.config.publicUrl,
    usage: ctx.usage,
    maxBatch: async (tenantId) => (await ctx.packages.load(tenantId)).max_batch_recall_size,
    importLog: (auth, thingsId, file) => uploads.upload(auth, thingsId, file),
    owner: ctx.jobs.owner,
  });
  ctx.jobs.register('recall', (pass) => recall.recover(pass));
  await recallRoutes(app, recall);
  const firmware = firmwareService({
    raw: ctx.database.raw,
    commands,
    events: ctx.events,
    files: ctx.files,
    publicUrl: () => ctx.config.publicUrl,
    owner: ctx.jobs.owner,
  });
  ctx.jobs.register('firmware-upgrade', (pass) => firmware.recover(pass));
  firmwareRoutes(app, firmware);
  const ecus = ecuService(ctx.database.raw, ctx.files);
  ecuRoutes(app, ecus);
  const uds = udsService({ raw: ctx.database.raw, commands, ecus, events: ctx.events, log: app.log, owner: ctx.jobs.owner });
  ctx.jobs.register('ecu-flash', (pass) => uds.recover(pass));
  remoteLiveRoutes(app, ctx);
  udsRoutes(app, uds);
  return { commands };
}
