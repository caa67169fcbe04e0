import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type LoggerheadApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { runPeriodically } from '../src/lib/periodic.ts';
import { periodicSlotsRepository } from '../src/lib/periodic-slots.repository.ts';
import { openTestDatabase, testConfig } from './helper.ts';
import { poll } from './poll.ts';

const PERIOD_MS = 250;

describe('periodic work on two server copies (one database)', () => {
  let shared: { database: Database; drop: () => Promise<void> };
  const dirs: string[] = [];
  const apps: LoggerheadApp[] = [];
  const runs: { copy: number; slot: number }[] = [];

  async function copy(n: number): Promise<LoggerheadApp> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-copy-'));
    dirs.push(dataDir);
    const app = await buildApp(testConfig({ dataDir, port: 42100 + n, scheduler: true }), { database: shared.database, logger: false });
    // A short task of the test's own, registered on each copy as a module registers its sweep.
    runPeriodically(app, app.ctx, {
      name: 'test-tick',
      everyMs: PERIOD_MS,
      work: async ({ slot }) => {
        runs.push({ copy: n, slot: slot ?? -1 });
      },
    });
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    shared = await openTestDatabase();
    apps.push(await copy(1), await copy(2));
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await shared?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs a task shorter than a minute once per period, whichever copy ticks first', async () => {
    runs.length = 0;
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    const elapsed = Date.now() - started;
    const slots = runs.map((r) => r.slot);
    // Each copy ticks twice a period: without the slot, each period would run up to four times.
    expect(new Set(slots).size).toBe(slots.length);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(elapsed / PERIOD_MS) + 1);
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor(elapsed / PERIOD_MS / 2));
  });

  it('runs the command sweep on the slots too, taken by one of the copies', async () => {
    const owners = apps.map((a) => a.ctx.jobs.owner);
    const row = async () =>
      (
        await shared.database.raw.query<{ slot: string; holder: string }>(
          `select slot, holder from periodic_slots where name = 'command-sweep'`,
        )
      ).rows[0];
    const first = await poll(row, (r) => r !== undefined, { ms: 5000 });
    const later = await poll(row, (r) => Number(r?.slot) > Number(first.slot), { ms: 5000 });
    expect(owners).toContain(later.holder);
  });

  it('keeps one schedule per periodic task of a minute or longer on the job scheduler', async () => {
    for (const app of apps) {
      const schedules = await app.ctx.scheduler?.schedules();
      expect(schedules).toEqual(
        expect.arrayContaining([
          { name: 'session-sweep', cron: '11 * * * *' },
          { name: 'retention-sweep', cron: '23 * * * *' },
          { name: 'behaviour-retention', cron: '29 * * * *' },
          { name: 'tenant-job-sweep', cron: '* * * * *' },
        ]),
      );
      // pg-boss keeps schedules by name: two copies registering the same task leave one.
      expect(schedules?.filter((s) => s.name === 'session-sweep')).toHaveLength(1);
    }
  });

  it('gives a slot to the first copy that asks within it, and the next slot again', async () => {
    const slots = periodicSlotsRepository(shared.database.raw);
    // A slot of an hour: both asks fall in it.
    const hour = Math.floor(Date.now() / 3600_000);
    const taken = await slots.claim('test-hour', 3600_000, apps[0].ctx.jobs.owner);
    expect([hour, hour + 1]).toContain(taken);
    expect(await slots.claim('test-hour', 3600_000, apps[1].ctx.jobs.owner)).toBeNull();
    const first = await slots.claim('test-short', 50, apps[1].ctx.jobs.owner);
    await new Promise((r) => setTimeout(r, 120));
    const next = await slots.claim('test-short', 50, apps[0].ctx.jobs.owner);
    expect(next).not.toBeNull();
    expect(next).toBeGreaterThanOrEqual((first ?? 0) + 2);
  });
});
