import type { FastifyInstance } from 'fastify';

/**
 * Runs `work` every hour while the app is up, the first time a few minutes after it is ready (such
 * sweeps are never urgent, and a start stays quick); a failure is logged as `<what> failed`. The
 * timers never keep the process alive and stop when the app closes.
 */
export function everyHour(app: FastifyInstance, what: string, work: () => Promise<unknown>): void {
  let first: NodeJS.Timeout | null = null;
  let timer: NodeJS.Timeout | null = null;
  const run = () => void work().catch((err) => app.log.error({ err }, `${what} failed`));
  app.addHook('onReady', async () => {
    first = setTimeout(run, 5 * 60_000);
    first.unref();
    timer = setInterval(run, 3600_000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (first) clearTimeout(first);
    if (timer) clearInterval(timer);
  });
}
