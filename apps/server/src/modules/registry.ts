import { eventLoopLag } from '../lib/event-loop-lag.ts';
import { runPeriodically } from '../lib/periodic.ts';
import type { AppContext, LoggerheadApp } from '../app.ts';
import { alertModule } from './alert/alert.module.ts';
import { apiKeyRoutes } from './apikey/apikey.routes.ts';
import { billingModule } from './billing/billing.module.ts';
import { brokerRoutes } from './broker/broker.routes.ts';
import { remoteModule } from './command/remote.module.ts';
import { controlRoutes } from './control/control.routes.ts';
import { oidcRoutes } from './control/oidc.routes.ts';
import { privilegesRoutes } from './control/privileges.routes.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { panelRoutes } from './dashboard/panels.routes.ts';
import { dataRoutes } from './data/data.routes.ts';
import { trafficRoutes } from './data/traffic.routes.ts';
import { deviceTypeSchemaRoutes } from './device-type-schema/device-type-schema.routes.ts';
import { edgeRoutes } from './edge/edge.routes.ts';
import { experienceModule } from './experience/experience.module.ts';
import { fenceRoutes } from './fence/fence.routes.ts';
import { forwardModule } from './forward/forward.module.ts';
import { gpsRoutes } from './gps/gps.routes.ts';
import { groupRoutes } from './group/group.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { hmiModule } from './hmi/hmi.routes.ts';
import { jobsModule } from './jobs/jobs.routes.ts';
import { labelRoutes } from './label/label.routes.ts';
import { roleRoutes } from './role/role.routes.ts';
import { mappingRoutes } from './mapping/mapping.routes.ts';
import { modelsRoutes } from './models/models.routes.ts';
import { messageLiveRoutes } from './message/message.live.ts';
import { messageRoutes } from './message/message.routes.ts';
import { noticeRoutes } from './notice/notice.routes.ts';
import { noticeService } from './notice/notice.service.ts';
import { notificationRoutes } from './notification/notification.routes.ts';
import { opLogRepository } from './oplog/oplog.repository.ts';
import { opLogRoutes } from './oplog/oplog.routes.ts';
import { pluginModule } from './plugin/plugin.module.ts';
import { projectRoutes } from './project/project.routes.ts';
import { behaviourRoutes } from './behaviour/behaviour.routes.ts';
import { signalsRoutes } from './signals/signals.routes.ts';
import { statisticsModule } from './statistics/statistics.module.ts';
import { tenantModule } from './tenant/tenant.module.ts';
import { testmgmtModule } from './testmgmt/testmgmt.module.ts';
import { thingsRoutes } from './things/things.routes.ts';
import { twinModule } from './twin/twin.routes.ts';
import { userConfigRoutes } from './user-config/user-config.routes.ts';
import { webConfigRoutes } from './web-config/web-config.routes.ts';
import { workOrderModule } from './workorder/workorder.module.ts';

/**
 * Every feature module registers its routes (and MQTT handlers, jobs…) here.
 * A module gets the app and the shared context; it builds its own
 * repository and service from `ctx.database`.
 */
export type ModuleRegistrar = (app: LoggerheadApp, ctx: AppContext) => void | Promise<void>;

export const modules: ModuleRegistrar[] = [
  (app, ctx) => {
    const lag = eventLoopLag({ warnMs: ctx.config.eventLoopWarnMs, log: app.log });
    app.addHook('onClose', async () => lag.stop());
    healthRoutes(app, {
      db: () => ctx.database.ping(),
      broker: () => ctx.broker.isUp(),
      accounts: () => ctx.ingest.accounts?.state() ?? null,
      diskLow: () => ctx.ingest.disk.low,
      version: ctx.version,
      lag: () => lag.report(),
    });
  },
  (app, ctx) => brokerRoutes(app, ctx),
  (app, ctx) => {
    controlRoutes(app, ctx.control, opLogRepository(ctx.database.raw));
    // Ended sessions are deleted a week after they end.
    runPeriodically(app, ctx, {
      name: 'session-sweep',
      everyMs: 3600_000,
      cron: '11 * * * *',
      work: () => ctx.control.purgeEndedSessions(),
    });
  },
  (app, ctx) => oidcRoutes(app, ctx),
  (app, ctx) => apiKeyRoutes(app, ctx),
  (app, ctx) => webConfigRoutes(app, ctx),
  (app, ctx) => tenantModule(app, ctx),
  (app, ctx) => privilegesRoutes(app, ctx),
  (app, ctx) => notificationRoutes(app, ctx),
  (app, ctx) => opLogRoutes(app, ctx),
  (app, ctx) => userConfigRoutes(app, ctx),
  (app, ctx) => messageRoutes(app, ctx.messages),
  (app, ctx) => messageLiveRoutes(app, ctx),
  (app, ctx) => noticeRoutes(app, noticeService(ctx.database.raw)),
  (app, ctx) => workOrderModule(app, ctx),
  (app, ctx) => billingModule(app, ctx),
  (app, ctx) => thingsRoutes(app, ctx),
  (app, ctx) => labelRoutes(app, ctx),
  (app, ctx) => projectRoutes(app, ctx),
  (app, ctx) => behaviourRoutes(app, ctx),
  (app, ctx) => roleRoutes(app, ctx),
  (app, ctx) => deviceTypeSchemaRoutes(app, ctx),
  (app, ctx) => modelsRoutes(app, ctx),
  // Digital twins: model-shaped telemetry, desired state, acknowledgements, twin rules.
  (app, ctx) => twinModule(app, ctx),
  (app, ctx) => dataRoutes(app, ctx),
  // Tenant flow and device ranking: the per-hour traffic counts the ingest keeps.
  (app, ctx) => trafficRoutes(app, ctx),
  (app, ctx) => dashboardRoutes(app, ctx),
  (app, ctx) => panelRoutes(app, ctx),
  (app, ctx) => mappingRoutes(app, ctx),
  // Decode-on-ingest: every committed frame batch of a channel whose DBC parsing is started.
  (app, ctx) => {
    ctx.signals.attach(ctx.ingest.writer);
    ctx.jobs.register('backfill', (pass) => ctx.signals.backfill.recover(pass));
    return signalsRoutes(app, ctx);
  },
  // Trigger rules and alert events, evaluated on committed frame batches and stored GPS fixes.
  (app, ctx) => alertModule(app, ctx),
  // Things-forward rules: what ingest committed, decoded signals, alerts and status changes, sent out.
  (app, ctx) => forwardModule(app, ctx),
  // Statistics tasks: methods over devices × signals × hourly or daily windows, computed on schedule.
  (app, ctx) => statisticsModule(app, ctx),
  (app, ctx) => pluginModule(app, ctx),
  (app, ctx) => fenceRoutes(app, ctx),
  (app, ctx) => gpsRoutes(app, ctx),
  // Remote operations: commands, CAN send, config, file recall, firmware, ECU files, UDS and ECU flashing;
  // test management sends its routines' steps, edge-computing rules go to devices, and jobs and HMI buttons send, through the same commands.
  async (app, ctx) => {
    const { commands } = await remoteModule(app, ctx);
    testmgmtModule(app, ctx, commands);
    groupRoutes(app, ctx, commands);
    edgeRoutes(app, ctx, commands);
    jobsModule(app, ctx, commands);
    // HMI screens: their buttons send commands through the same service.
    hmiModule(app, ctx, commands);
  },
  // Last: the experience account's demo is seeded through the modules above, once they are ready.
  (app, ctx) => experienceModule(app, ctx),
];
