import type { AppContext, LoggerheadApp } from '../../app.ts';
import type { CommandService } from '../command/command.service.ts';
import { testRunner } from './runner.ts';
import { runsService } from './runs.service.ts';
import { GroovyRuntime } from './runtime/groovy-runtime.ts';
import { scriptsService } from './scripts.service.ts';
import { testmgmtLiveRoutes } from './testmgmt.live.ts';
import { testmgmtRoutes } from './testmgmt.routes.ts';

/**
 * Test management (TestManager): analysis scripts run by a pool of Groovy workers, routines of
 * steps sent through the command feature, runs queued per device and resumed after a restart,
 * reports. The pool starts with the server (`GROOVY_WARM`) and stops with it.
 */
export function testmgmtModule(app: LoggerheadApp, ctx: AppContext, commands: CommandService) {
  const g = ctx.config.groovy;
  const runtime = new GroovyRuntime({
    workers: g.workers,
    heapMb: g.heapMb,
    cpuMs: g.cpuSeconds * 1000,
    wallMs: g.wallSeconds * 1000,
    outputBytes: g.outputKb * 1024,
    maxFrames: g.maxFrames,
    warm: g.warm,
    sandbox: g.sandbox,
    sandboxUid: g.sandboxUid,
    log: app.log,
  });
  const runner = testRunner({
    raw: ctx.database.raw,
    commands,
    runtime,
    events: ctx.events,
    owner: ctx.jobs.owner,
    maxFrames: g.maxFrames,
    settleMs: 1000,
    log: app.log,
  });
  const scripts = scriptsService({ raw: ctx.database.raw, runtime, quota: ctx.quota });
  const runs = runsService({ raw: ctx.database.raw, runtime, runner, scripts, events: ctx.events });
  // Runs whose server stopped are resumed where they were (the job leases say whose they were). The
  // first pass comes once the broker is up and this copy holds its lease: queued runs start from then.
  ctx.jobs.register('test-run', (pass) => runner.recover(pass));
  app.addHook('onReady', async () => {
    if (g.warm) runtime.start();
  });
  app.addHook('onClose', async () => {
    await runner.close();
    await runtime.close();
  });
  testmgmtRoutes(app, { runtime, scripts, runs });
  testmgmtLiveRoutes(app, ctx);
  return { runtime, runner, runs };
}
