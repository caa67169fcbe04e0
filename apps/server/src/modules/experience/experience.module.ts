import type { AppContext, LoggerheadApp } from '../../app.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { demoRepository } from './demo.repository.ts';
import { LiveDemo } from './demo-live.ts';
import { DEMO_DEVICES, type DemoManager, demoDeviceId, demoManager, driveHistory, type SeedResult, seedDemo } from './demo-seed.ts';

/** How often the demo's data is checked for histories retention removed. */
const TOP_UP_MS = 3600_000;

const registry = new WeakMap<object, { seeded: Promise<SeedResult | null>; live: LiveDemo | null }>();

/** The demo seed and live logger of an app (tests wait on the seed, read the logger's count). */
export function experienceOf(app: LoggerheadApp) {
  return registry.get(app) ?? null;
}

/**
 * The experience account's demo (spec §2: "a read-only demo tenant that the first start seeds with
 * devices and data"): seeded when the server gets ready, through the same services as real data;
 * then, with the embedded broker, a simulated logger keeps the first demo device online.
 */
export function experienceModule(app: LoggerheadApp, ctx: AppContext) {
  if (!ctx.config.experience) return;
  let live: LiveDemo | null = null;
  let resolveSeeded: (r: SeedResult | null) => void = () => {};
  const seeded = new Promise<SeedResult | null>((r) => {
    resolveSeeded = r;
  });
  const entry = { seeded, live: null as LiveDemo | null };
  registry.set(app, entry);

  // In the background once the server is ready: a start is not held up, and the console works
  // while the demo fills (the seed takes a few seconds).
  const abort = { aborted: false };
  let running: Promise<void> | null = null;
  app.addHook('onReady', async () => {
    running = seedThenLive().finally(() => {
      running = null;
    });
  });
  async function seedThenLive() {
    const m = await demoManager(ctx).catch(() => null);
    if (!m) {
      resolveSeeded(null);
      return;
    }
    const started = performance.now();
    const now = Date.now();
    let result: SeedResult | null = null;
    try {
      result = await seedDemo(app, ctx, m, { abort, now });
    } catch (err) {
      // The console works without the demo's data; the next start completes it.
      if (!abort.aborted) app.log.error({ err }, 'experience demo not seeded');
    }
    resolveSeeded(result);
    if (!result) return;
    const ms = Math.round(performance.now() - started);
    app.log.info({ ms, ...result.created }, `experience demo ready in ${ms} ms`);
    if (ctx.config.experienceLive && !ctx.config.mqttUrl && !abort.aborted) {
      live = startLive(app, ctx, m, now);
      entry.live = live;
    }
    // The demo keeps a day or two of data: a vehicle whose history retention removed gets a new
    // one within the hour (the check finds everything in place otherwise and adds nothing).
    topUpWith = m;
  }
  let topUpWith: DemoManager | null = null;
  runPeriodically(app, ctx, {
    name: 'experience-top-up',
    everyMs: TOP_UP_MS,
    cron: '41 * * * *',
    work: async () => {
      if (!topUpWith || running || abort.aborted) return;
      running = seedDemo(app, ctx, topUpWith, { abort })
        .then((r) => {
          if (r.created.histories) app.log.info(r.created, 'experience demo history renewed');
        })
        .catch((err) => {
          if (!abort.aborted) app.log.error({ err }, 'experience demo not renewed');
        })
        .finally(() => {
          running = null;
        });
      await running;
    },
  });
  app.addHook('preClose', async () => {
    abort.aborted = true;
    await running;
    await live?.stop();
  });
}

function startLive(app: LoggerheadApp, ctx: AppContext, m: DemoManager, seededAt: number): LiveDemo {
  const spec = DEMO_DEVICES[0];
  const deviceId = demoDeviceId(m.tenantId, 0);
  const host = /^(0\.0\.0\.0|::|)$/.test(ctx.config.host)
    ? '127.0.0.1'
    : ctx.config.host.includes(':')
      ? `[${ctx.config.host}]`
      : ctx.config.host;
  const live = new LiveDemo({
    broker: () => {
      const port = ctx.broker.isUp() ? ctx.broker.port() : null;
      return port ? `mqtt://${host}:${port}` : null;
    },
    deviceId,
    key: () => demoRepository(ctx.database.raw).deviceKey(m.tenantId, deviceId),
    // The first truck is still driving when its history ends: it carries on from there.
    sim: driveHistory(spec, seededAt),
    log: app.log,
  });
  live.start();
  return live;
}
