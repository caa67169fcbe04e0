import type { GpsFix } from '@loggerhead/can/protocol/messages.ts';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { httpSmsTransport } from '../../notify/http-sms.transport.ts';
import type { Channel, Transport } from '../../notify/notifier.ts';
import { smtpTransport } from '../../notify/smtp.transport.ts';
import { engineRepository } from '../../rules/engine.repository.ts';
import { RuleEngine } from '../../rules/rules.engine.ts';
import type { Clock } from '../../rules/throttle.ts';
import { commandService } from '../command/command.service.ts';
import './alert.events.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { alertDispatcher } from './alert.dispatcher.ts';
import { createOutbox, type Outbox } from './alert.outbox.ts';
import { alertRoutes } from './alert.routes.ts';
import { dispatchRepository } from './dispatch.repository.ts';
import { eventsRepository } from './events.repository.ts';
import { eventsRoutes } from './events.routes.ts';
import { eventsService } from './events.service.ts';
import { rulesRepository } from './rules.repository.ts';
import { type RulesService, rulesService } from './rules.service.ts';

/** The alert machinery of one app, for the fence module and for tests (fake clock, direct fixes). */
export interface Alerts {
  engine: RuleEngine;
  outbox: Outbox;
  rules: RulesService;
  /** Where action frequency and event times read "now"; tests replace `now`. */
  clock: Clock;
  /** Evaluates fence rules for fixes of a device (the GPS uplink path calls it). */
  onFixes(tenantId: string, thingsId: string, fixes: readonly GpsFix[]): void;
  /** Resolves when queued evaluation, dispatch and first send attempts are done. */
  idle(): Promise<void>;
}

/** How often queued alert messages whose retry time has come are sent again. */
const OUTBOX_RETRY_MS = 5000;

const registry = new WeakMap<object, Alerts>();
export function alertsOf(app: LoggerheadApp): Alerts {
  const a = registry.get(app);
  if (!a) throw new Error('alert module not registered');
  return a;
}

/** Trigger rules, alert events, evaluation on the ingest stream and the notification outbox. */
export function alertModule(app: LoggerheadApp, ctx: AppContext) {
  const raw = ctx.database.raw;
  const clock: Clock = { now: () => Date.now() };
  const sms = ctx.config.smsUrl ? httpSmsTransport(ctx.config.smsUrl) : undefined;
  const transports: Partial<Record<Channel, Transport>> = {
    email: ctx.config.smtpUrl ? smtpTransport(ctx.config.smtpUrl, ctx.config.mailFrom) : undefined,
    sms,
    voice: sms,
  };
  const outbox = createOutbox({ raw, transports, clock, log: app.log });
  const engineRepo = engineRepository(raw);
  const eventsRepo = eventsRepository(raw);
  // Alarm commands go through the command service like every other command: tracked in the device's
  // command list, queued while the device is offline, matched with the device's response.
  const commands = commandService({ raw, broker: ctx.broker, events: ctx.events, log: app.log });
  const dispatch = alertDispatcher({
    raw,
    events: ctx.events,
    messages: ctx.messages,
    outbox,
    broker: ctx.broker,
    sendCommand: async (device, body, createdBy) => {
      const row = await commands.issueRaw(await commands.target(device.tenantId, device.thingsId), body, createdBy);
      return { correlation_id: row.correlation_id, state: row.state };
    },
    clock,
    timeZone: ctx.config.timeZone,
    engineRepo,
    eventsRepo,
    smsAllowance: async (tenantId) => {
      if (await dispatchRepository(raw).isSystemTenant(tenantId)) return null;
      return (await ctx.packages.load(tenantId)).alert_sms ?? null;
    },
    log: app.log,
  });
  // One decoder cache for the app: the rules compile their DBC signals in the decode stage's.
  const engine = new RuleEngine(engineRepo, dispatch, app.log, Date.now, ctx.signals.decoders);
  const rules = rulesService({ raw, repo: rulesRepository(raw), quota: ctx.quota, events: ctx.events });

  // Committed batches reach the rules through the decode stage, which decodes the frames their DBC
  // signals watch in the same pass as the stored signals (one decode per frame).
  const detach = ctx.events.on('signals.frames', (e) => engine.onDecoded(e));
  ctx.signals.demandFrom(
    (tenantId, thingsId) => engine.demand(tenantId, thingsId),
    (devices) => engine.prefetch(devices),
  );
  // Fixes reach fence rules after they are stored, whichever broker carried them.
  ctx.ingest.pipeline.onGps((d, fixes) => engine.onFixes(d.tenantId, d.thingsId, fixes));
  ctx.events.on('alert.rules-changed', (e) => engine.invalidate(e.thingsId));
  ctx.events.on('fence.changed', () => engine.invalidate());

  registry.set(app, {
    engine,
    outbox,
    rules,
    clock,
    onFixes: (tenantId, thingsId, fixes) => engine.onFixes(tenantId, thingsId, fixes),
    async idle() {
      await ctx.signals.decodeIdle();
      await engine.idle();
      await outbox.idle();
    },
  });

  alertRoutes(app, rules);
  eventsRoutes(app, eventsService(raw, eventsRepo));

  // Messages whose retry time has come go out every few seconds, from one server copy.
  runPeriodically(app, ctx, { name: 'alert-outbox', everyMs: OUTBOX_RETRY_MS, work: () => outbox.runDue() });
  // The retry loop stops first; alarms raised while the broker drains stay queued in the push log
  // and go out from the next start. (onClose hooks run last-added first: the broker and database
  // close before this one runs, so it only lets go of the writer.)
  app.addHook('preClose', async () => {
    await outbox.close().catch(() => {});
  });
  app.addHook('onClose', async () => {
    detach();
    ctx.signals.demandFrom(null);
    await engine.idle().catch(() => {});
  });
}
