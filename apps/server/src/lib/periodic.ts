import type { AppContext } from '../app.ts';
import type { App } from './fastify.ts';
import { periodicSlotsRepository } from './periodic-slots.repository.ts';

export interface PeriodicTask {
  /** The task's name: its scheduler queue, its slot row, and its log line (`<name> failed`). */
  name: string;
  /** How often it runs. */
  everyMs: number;
  /**
   * A five-field cron expression (UTC) for a task of a minute or longer: it runs on the job
   * scheduler's schedule. Without one, or with the scheduler off (`SCHEDULER=false`), each copy ticks
   * twice every `everyMs` and the copy that takes the time slot runs it.
   */
  cron?: string;
  /** The work; `slot` is the time slot it runs for (on the slots, not on the cron schedule). */
  work: (run: { slot?: number }) => Promise<unknown>;
}

/**
 * Periodic work of the deployment, run once per period whichever server copies are up
 * (docs/decisions/0170-periodic-work-runs-once.md): on the job scheduler's cron schedule when it has
 * one, else on a time slot the copies claim in `periodic_slots`. A failure is logged; a run still in
 * progress on this copy when its next tick comes is not doubled on it. Nothing keeps the process
 * alive, and the ticks stop when the app closes.
 */
export function runPeriodically(app: App, ctx: Pick<AppContext, 'scheduler' | 'database' | 'jobs'>, task: PeriodicTask): void {
  const run = async (slot?: number) => {
    try {
      await task.work({ slot });
    } catch (err) {
      app.log.error({ err }, `${task.name} failed`);
    }
  };
  if (task.cron && ctx.scheduler) {
    // Polled a few times a period, at most once a minute (a task of an hour has no need to start within seconds).
    ctx.scheduler.every(task.name, task.cron, () => run(), { pollSeconds: Math.min(60, Math.max(10, task.everyMs / 4000)) });
    return;
  }
  const slots = periodicSlotsRepository(ctx.database.raw);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;
  const tick = async () => {
    const slot = await slots.claim(task.name, task.everyMs, ctx.jobs.owner);
    if (slot !== null) await run(slot);
  };
  app.addHook('onReady', async () => {
    // Twice a period: a tick that reaches the database late in one slot still leaves one for the next.
    timer = setInterval(
      () => {
        if (running || closed) return;
        running = tick()
          .catch((err) => app.log.warn({ err }, `${task.name} not started`))
          .finally(() => {
            running = null;
          });
      },
      Math.max(50, task.everyMs / 2),
    );
    timer.unref();
  });
  app.addHook('preClose', async () => {
    closed = true;
    if (timer) clearInterval(timer);
    await running;
  });
}
