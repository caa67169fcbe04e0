import { createHash } from 'node:crypto';
import type { CanFrame } from '@loggerhead/can';
import { encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import type { GpsFix } from '@loggerhead/can/protocol/messages.ts';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import {
  DEFAULT_DASHBOARD_TYPE,
  FenceInputSchema,
  liveCurvesConfigKey,
  PanelBodySchema,
  TriggerRuleInputSchema,
  textRef,
  VehicleCreateSchema,
} from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import type { Auth } from '../../lib/auth.ts';
import { alertsOf } from '../alert/alert.module.ts';
import { panelsService } from '../dashboard/panels.service.ts';
import { quickDeleteRepository } from '../data/quick-delete.repository.ts';
import { fenceRepository } from '../fence/fence.repository.ts';
import { fenceService } from '../fence/fence.service.ts';
import { labelRepository } from '../label/label.repository.ts';
import { labelService } from '../label/label.service.ts';
import { bindingsService } from '../mapping/bindings.service.ts';
import { mappingRepository } from '../mapping/mapping.repository.ts';
import { mappingService } from '../mapping/mapping.service.ts';
import { projectNarrowing } from '../project/project.narrowing.ts';
import { thingsService } from '../things/things.service.ts';
import { vehiclesService } from '../things/vehicles.service.ts';
import { userConfigRepository } from '../user-config/user-config.repository.ts';
import { userConfigService } from '../user-config/user-config.service.ts';
import { demoRepository } from './demo.repository.ts';
import { DEMO_DBC_NAME, DriveSim, type DriveState, demoDbcText, FENCE_CENTER, FrameMaker, fixOf, HISTORY_RATES } from './demo-drive.ts';

/** How far back the generated history reaches. */
export const HISTORY_MS = 2 * 3600_000;
/**
 * The demo package: its three devices, and data kept a day (retention works by whole days: one to two
 * days stay), which bounds what the live logger adds; histories removed are renewed (experience.module).
 */
export const DEMO_RETENTION_DAYS = 1;
export const DEMO_THINGS_NUM = 3;
// Names a person reads are catalogue references, read in the reader's language (decision 0178).
export const DEMO_TYPE_NAME = textRef('seed.demo.type.name');
const FENCE_NAME = textRef('seed.demo.fence.name');
const SPEED_RULE = textRef('seed.demo.rule.speed.name');
const FENCE_RULE = textRef('seed.demo.rule.fence.name');
const SOC_RULE = textRef('seed.demo.rule.soc.name');
/** A batch of the generated history spans this long (a logger buffering a minute). */
const BATCH_MS = 60_000;
/** A GPS fix every this many ms while the ignition is on. */
export const GPS_EVERY_MS = 2000;
/** The device event that marks a device's history as generated (written after the history). */
const MARKER = 'demo-history';

export interface DemoDeviceSpec {
  name: string;
  seed: number;
  /** Share of the road speeds this driver keeps. */
  pace: number;
  /** Where on the loop the day starts (m). */
  start: number;
  /** Ignition-on periods, minutes into the two hours of history. */
  trips: [number, number][];
  /** Label names (the seed makes them in the tenant's label registry) and each device's value. */
  labels: { label: string; labelValue: string }[];
}

/** The first device is the one the live logger plays; it is still driving when the history ends. */
export const DEMO_DEVICES: DemoDeviceSpec[] = [
  {
    name: textRef('seed.demo.truck-1'),
    seed: 11,
    pace: 1,
    start: 0,
    trips: [
      [0, 40],
      [70, 120],
    ],
    labels: [
      { label: 'fleet', labelValue: textRef('seed.demo.label.shanghai') },
      { label: 'model', labelValue: textRef('seed.demo.label.hybrid-truck') },
    ],
  },
  {
    name: textRef('seed.demo.truck-2'),
    seed: 23,
    pace: 1.06,
    start: 9_000,
    trips: [[10, 60]],
    labels: [
      { label: 'fleet', labelValue: textRef('seed.demo.label.shanghai') },
      { label: 'model', labelValue: textRef('seed.demo.label.hybrid-truck') },
    ],
  },
  {
    name: textRef('seed.demo.van-3'),
    seed: 37,
    pace: 0.92,
    start: 21_000,
    trips: [[40, 80]],
    labels: [
      { label: 'fleet', labelValue: textRef('seed.demo.label.shanghai') },
      { label: 'model', labelValue: textRef('seed.demo.label.delivery-van') },
    ],
  },
];

/** A device ID of 20 hex digits, the same for a demo tenant each start and unlikely to meet a real one. */
export function demoDeviceId(tenantId: string, index: number): string {
  return createHash('sha256').update(`loggerhead-demo/${tenantId}/${index}`).digest('hex').slice(0, 20).toUpperCase();
}

export interface DemoManager {
  tenantId: string;
  userId: string;
}

export async function demoManager(ctx: AppContext): Promise<DemoManager | null> {
  const row = await demoRepository(ctx.database.raw).manager();
  return row ? { tenantId: row.tenant_id, userId: row.id } : null;
}

/** The demo manager as the services see a caller: not read-only, since the server itself seeds. */
export function seedAuth(m: DemoManager): Auth {
  return {
    userId: m.userId,
    tenantId: m.tenantId,
    username: 'demo',
    sessionId: '',
    isManager: true,
    systemManager: false,
    grants: null,
    readOnly: false,
  };
}

export interface SeedResult {
  devices: { id: string; deviceId: string; name: string }[];
  /** What this start added (0 everywhere on a start after a complete seed). */
  created: { devices: number; histories: number; frames: number; fixes: number };
}

/**
 * Seeds the demo tenant through the services real data goes through: devices and their type, a
 * vehicle, the shipped DBC bound to channel 0 with parsing started, an e-fence, trigger rules, the
 * package's limits, then two hours of generated driving per device sent through the uplink
 * pipeline (frames and GPS, as if a logger had sent them) so that decoding, fences and rules run
 * on them as on any upload. Every step looks first for what it makes, and a device's history is
 * marked done only after it is stored: an interrupted seed is completed at the next start.
 */
export async function seedDemo(
  app: LoggerheadApp,
  ctx: AppContext,
  m: DemoManager,
  opts: { abort?: { aborted: boolean }; now?: number } = {},
): Promise<SeedResult> {
  const now = opts.now ?? Date.now();
  const stopIfAsked = () => {
    if (opts.abort?.aborted) throw new Error('demo seed stopped: the server is closing');
  };
  const raw = ctx.database.raw;
  const auth = seedAuth(m);
  const things = thingsService({ raw, onCredentialsChanged: (id) => ctx.ingest.forgetDevice(id) });
  const created = { devices: 0, histories: 0, frames: 0, fixes: 0 };

  // The package first: three devices, a short retention.
  const pkg = await ctx.packages.load(m.tenantId);
  if (pkg.maximum_data_retention_days !== DEMO_RETENTION_DAYS || (pkg.things_num ?? Infinity) < DEMO_THINGS_NUM) {
    await ctx.packages.update(auth, m.tenantId, { maximum_data_retention_days: DEMO_RETENTION_DAYS, things_num: DEMO_THINGS_NUM });
  }

  const type =
    (await things.listTypes(auth)).find((t) => t.name === DEMO_TYPE_NAME && !t.public) ??
    (await things.createType(auth, {
      name: DEMO_TYPE_NAME,
      display_name: textRef('seed.demo.type.display'),
      description: textRef('seed.demo.type.description'),
      can_channels: 2,
      thing_type: 0,
    }));

  // Device labels refer to the tenant's label registry: the demo's label names are made there first.
  const labels = labelService({ repo: labelRepository(raw) });
  const labelIds = new Map<string, string>();
  for (const name of new Set(DEMO_DEVICES.flatMap((d) => d.labels.map((l) => l.label)))) {
    labelIds.set(name, (await labels.ensure(auth, name)).id);
  }

  const devices: SeedResult['devices'] = [];
  // Made last to first, so that the list (newest first) starts with the first truck.
  for (let i = DEMO_DEVICES.length - 1; i >= 0; i--) {
    const spec = DEMO_DEVICES[i];
    const deviceId = demoDeviceId(m.tenantId, i);
    let id = (await demoRepository(raw).deviceId(m.tenantId, deviceId)) ?? undefined;
    if (!id) {
      id = (
        await things.create(auth, {
          third_things_id: deviceId,
          name: spec.name,
          info_model_id: type.id,
          description: textRef('seed.demo.device.description'),
          labels: spec.labels.map((l) => ({ tenantLabelId: labelIds.get(l.label) ?? l.label, labelValue: l.labelValue })),
        })
      ).id;
      created.devices++;
    }
    devices[i] = { id, deviceId, name: spec.name };
  }

  const cars = vehiclesService(raw, projectNarrowing(ctx));
  if ((await cars.list(auth, 1, 10, DEMO_DEVICES[0].name)).total === 0) {
    await cars.create(
      auth,
      VehicleCreateSchema.parse({
        name: DEMO_DEVICES[0].name,
        vin: 'LFWAD2A16N1000001',
        description: textRef('seed.demo.vehicle.description'),
        channels: [
          { name: textRef('seed.demo.ch.powertrain'), things_id: devices[0].id, channel: 0 },
          { name: textRef('seed.demo.ch.body'), things_id: devices[0].id, channel: 1 },
        ],
      }),
    );
  }

  const mapRepo = mappingRepository(raw);
  const mapping = mappingService(
    mapRepo,
    (ids) => {
      for (const id of ids) ctx.signals.invalidate(id);
    },
    raw,
  );
  const dbc =
    (await mapping.listDbc(auth, { current_page: 1, page_size: 10, keyword: DEMO_DBC_NAME })).list.find((f) => f.name === DEMO_DBC_NAME) ??
    (await mapping.createDbc(auth, { fileName: `${DEMO_DBC_NAME}.dbc`, bytes: new TextEncoder().encode(demoDbcText()) }, {}));
  const bindings = bindingsService(raw, mapRepo, {
    changed: (id) => ctx.signals.invalidate(id),
    clearChannel: (tenantId, thingsId, channel) => ctx.signals.clearChannel(tenantId, thingsId, channel),
    backfill: ctx.signals.backfill,
  });
  for (const d of devices) {
    const bound = (await bindings.list(auth, d.id)).find((b) => b.channel === 0);
    if (bound?.state !== 'started' || bound.dbc_id !== dbc.id) await bindings.bind(auth, d.id, 0, { dbc_id: dbc.id, state: 'started' });
  }

  const fences = fenceService(raw, fenceRepository(raw), ctx.events);
  const fence =
    (await fences.list(auth, { name: FENCE_NAME, current_page: 1, page_size: 10 })).list.find((f) => f.name === FENCE_NAME) ??
    (await fences.create(
      auth,
      FenceInputSchema.parse({
        name: FENCE_NAME,
        type: 'region',
        region: { shape: 'circle', center: FENCE_CENTER, radius: 600 },
        description: textRef('seed.demo.fence.description'),
        things_ids: devices.map((d) => d.id),
      }),
    ));

  // The live truck's real-time curves, saved for the demo manager (whose session cannot save them).
  const configs = userConfigService(userConfigRepository(raw));
  const curvesKey = liveCurvesConfigKey(devices[0].id);
  if (!(await configs.get(auth, curvesKey)).length) {
    const curves = [
      { name: textRef('seed.demo.sig.speed'), signal: 'VEHICLE_DYNAMICS.VehicleSpeed', channel: 0, shown: true },
      { name: textRef('seed.demo.sig.rpm'), signal: 'ENGINE_DATA.EngineSpeed', channel: 0, shown: true },
      { name: textRef('seed.demo.sig.current'), signal: 'BATTERY_STATUS.BatteryCurrent', channel: 0, shown: true },
      { name: textRef('seed.demo.sig.throttle'), signal: 'ENGINE_DATA.ThrottlePosition', channel: 0, shown: false },
    ];
    await configs.put(auth, curvesKey, JSON.stringify(curves));
  }

  // The default dashboard's panels: the live truck at a glance.
  const dashboardId = await demoRepository(raw).dashboardId(m.tenantId, DEFAULT_DASHBOARD_TYPE);
  if (dashboardId) {
    const panels = panelsService(raw, ctx.signals.repo);
    if (!(await panels.list(auth, dashboardId)).length) {
      const truck = devices[0].id;
      const demoPanels = [
        { name: textRef('seed.demo.sig.speed'), chart_type: 'number', signals: [['VEHICLE_DYNAMICS', 'VehicleSpeed']] },
        { name: textRef('seed.demo.sig.soc'), chart_type: 'gauge', signals: [['BATTERY_STATUS', 'BatterySOC']] },
        { name: textRef('seed.demo.sig.coolant'), chart_type: 'number', signals: [['ENV_STATUS', 'CoolantTemp']] },
        {
          name: textRef('seed.demo.sig.drive'),
          chart_type: 'line',
          x_axis_type: '1h',
          signals: [
            ['VEHICLE_DYNAMICS', 'VehicleSpeed'],
            ['ENGINE_DATA', 'ThrottlePosition'],
          ],
        },
        { name: textRef('seed.demo.sig.current'), chart_type: 'line', x_axis_type: '10m', signals: [['BATTERY_STATUS', 'BatteryCurrent']] },
      ] as const;
      for (const p of demoPanels) {
        await panels.create(
          auth,
          dashboardId,
          PanelBodySchema.parse({
            name: p.name,
            chart_type: p.chart_type,
            x_axis_type: 'x_axis_type' in p ? p.x_axis_type : '1h',
            things_id: truck,
            channel: 0,
            signals: p.signals.map(([message, signal]) => ({ message, signal })),
          }),
        );
      }
    }
  }

  // Rules on the devices that only have history: their alert events stay a handful.
  const rules = alertsOf(app).rules;
  const names = new Set(await demoRepository(raw).ruleNames(m.tenantId));
  const demoRules = [
    {
      name: SPEED_RULE,
      things_id: devices[1].id,
      data_type: 'signal',
      channel: 0,
      conditions: [{ source: 'signal', message: 'VEHICLE_DYNAMICS', signal: 'VehicleSpeed', op: '>', value: 100 }],
      description: textRef('seed.demo.rule.speed.description'),
      alert_description: textRef('seed.demo.rule.speed.alert'),
    },
    // On the live truck, a watch that a charge-sustaining hybrid does not trip: its tab shows a rule,
    // and the live stream adds no events.
    {
      name: SOC_RULE,
      things_id: devices[0].id,
      data_type: 'signal',
      channel: 0,
      conditions: [{ source: 'signal', message: 'BATTERY_STATUS', signal: 'BatterySOC', op: '<', value: 25 }],
      description: textRef('seed.demo.rule.soc.description'),
      alert_description: textRef('seed.demo.rule.soc.alert'),
    },
    {
      name: FENCE_RULE,
      things_id: devices[2].id,
      data_type: 'fence',
      fence_id: fence.id,
      fence_rule: 'in',
      description: textRef('seed.demo.rule.fence.description'),
      alert_description: textRef('seed.demo.rule.fence.alert'),
    },
  ];
  for (const rule of demoRules) {
    if (!names.has(rule.name)) await rules.create(auth, TriggerRuleInputSchema.parse(rule));
  }

  // History last, device by device.
  stopIfAsked();
  const deletes = quickDeleteRepository(raw);
  for (let i = 0; i < devices.length; i++) {
    const d = devices[i];
    if (await demoRepository(raw).historySeeded(d.id, MARKER)) continue;
    stopIfAsked();
    // Whatever an interrupted start left goes first, so nothing is stored twice.
    const all = { from: null, to: null };
    for (const day of await deletes.frameDays(m.tenantId, d.id, all)) await deletes.deleteFrames(m.tenantId, d.id, day, all);
    await deletes.deleteGps(m.tenantId, d.id, all);
    await ctx.signals.clearDevice(m.tenantId, d.id);
    const n = await writeHistory(ctx, { tenantId: m.tenantId, thingsId: d.id, deviceId: d.deviceId }, DEMO_DEVICES[i], now);
    created.frames += n.frames;
    created.fixes += n.fixes;
    created.histories++;
    await ctx.signals.idle();
    // The logger switched off at the end of its last trip, as a logger says it.
    const status = { online: false, firmware: 'sim-1.0.0', sd: { state: 'ok' }, channel_enable: 3 };
    await ctx.ingest.pipeline.handle(
      { tenantId: m.tenantId, thingsId: d.id, deviceId: d.deviceId, thingType: 0 },
      'status',
      upTopic(d.deviceId, 'status'),
      new TextEncoder().encode(JSON.stringify(status)),
    );
    await ctx.ingest.devices.event(
      { tenantId: m.tenantId, thingsId: d.id },
      'upload',
      `Demo history: ${n.frames} frames, ${n.fixes} GPS fixes`,
      {
        source: MARKER,
        frames: n.frames,
        fixes: n.fixes,
        begin_time: now - HISTORY_MS,
        end_time: now,
      },
    );
  }
  await ctx.signals.idle();
  await alertsOf(app).idle();
  return { devices, created };
}

/**
 * Replays a device's two hours up to `now`: its trips stepped a tenth of a second at a time (the
 * visitor sees each step as `step(state, ms, tripStartMs)`), the pauses between them parked. The
 * returned simulation stands where the history ends, so the live logger carries on from there.
 */
export function driveHistory(
  spec: DemoDeviceSpec,
  now: number,
  visit?: { step(s: DriveState, t: number, tripStart: number): void; tripEnd(): void },
): DriveSim {
  const begin = now - HISTORY_MS;
  const sim = new DriveSim(spec.seed, spec.start, spec.pace);
  let parkedUntil = begin;
  for (const [from, to] of spec.trips) {
    const tripStart = begin + from * 60_000;
    const tripEnd = Math.min(now, begin + to * 60_000);
    if (tripStart > parkedUntil) sim.park((tripStart - parkedUntil) / 1000);
    for (let t = tripStart; t < tripEnd; t += 100) {
      const s = sim.step(0.1);
      visit?.step(s, t, tripStart);
    }
    visit?.tripEnd();
    parkedUntil = tripEnd;
  }
  return sim;
}

/**
 * Two hours of a device's driving, generated and sent through the uplink pipeline: one frame batch
 * per minute of ignition-on time, and the GPS fixes of each trip.
 */
async function writeHistory(
  ctx: AppContext,
  device: { tenantId: string; thingsId: string; deviceId: string },
  spec: DemoDeviceSpec,
  now: number,
): Promise<{ frames: number; fixes: number }> {
  const identity = { ...device, thingType: 0 };
  const pipeline = ctx.ingest.pipeline;
  const framesTopic = upTopic(device.deviceId, 'frames');
  const gpsTopic = upTopic(device.deviceId, 'gps');
  const maker = new FrameMaker(HISTORY_RATES);
  const session = Number.parseInt(device.deviceId.slice(0, 7), 16);
  let seq = 0;
  let frames = 0;
  let fixes = 0;
  const writes: Promise<unknown>[] = [];
  let batch: CanFrame[] = [];
  let batchStart = 0;
  let gps: GpsFix[] = [];
  const flush = () => {
    if (batch.length) {
      const data = encodeBatch(batch, { session, seq: seq++ });
      frames += batch.length;
      writes.push(pipeline.handle(identity, 'frames', framesTopic, data));
      batch = [];
    }
  };
  const flushGps = () => {
    for (let k = 0; k < gps.length; k += 5000) {
      const part = gps.slice(k, k + 5000);
      writes.push(pipeline.handle(identity, 'gps', gpsTopic, new TextEncoder().encode(JSON.stringify(part))));
      fixes += part.length;
    }
    gps = [];
  };
  driveHistory(spec, now, {
    step(s, t, tripStart) {
      if (t === tripStart) batchStart = t;
      maker.frames(s, t * 1000, batch);
      if ((t - tripStart) % GPS_EVERY_MS === 0) gps.push(fixOf(s, t));
      if (t + 100 - batchStart >= BATCH_MS) {
        flush();
        batchStart = t + 100;
      }
    },
    tripEnd() {
      flush();
      flushGps();
    },
  });
  const results = await Promise.all(writes);
  if (results.some((r) => r !== 'stored')) throw new Error('demo history: an uplink was not stored');
  return { frames, fixes };
}
