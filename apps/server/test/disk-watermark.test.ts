import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { audit, type FleetDevice, storedBatches, streamFleet } from './fleet-audit.helpers.ts';
import { type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

/**
 * DATA_DIR on a small disk of its own (a 96 MB tmpfs; where mounting is not allowed, a folder of
 * the test's disk with the watermark set just under its free space) with the embedded database's
 * files on it, filled from outside during a stream: uplinks are refused before the disk is full
 * (not acknowledged, so the devices send them again), health says `disk: "low"`, ingest resumes by
 * itself once space is freed, and the database opens again on the same DATA_DIR.
 */
const MB = 1024 * 1024;

function freeBytes(dir: string) {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
}

describe('the free-space watermark of DATA_DIR', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-disk-'));
  let mounted = false;
  let t: TestApp | null = null;

  beforeAll(() => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', dir], { stdio: 'ignore' });
      mounted = true;
    } catch {
      mounted = false;
    }
  });
  afterAll(async () => {
    await t?.close().catch(() => {});
    if (mounted) execFileSync('umount', [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses uplinks before the disk is full, resumes once space is freed, and leaves the database openable', async () => {
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    // On the tmpfs: 16 MB kept free. Elsewhere: a watermark 64 MB under what is free now.
    const minMb = mounted ? 16 : Math.floor(freeBytes(dir) / MB) - 64;
    const config = testConfig({ dataDir, diskFreeMinBytes: minMb * MB });
    const app = await buildApp(config, { logger: false });
    await app.ready();
    t = { app, config, database: app.ctx.database, close: () => app.close() };
    const tenant = await makeTenant(t);
    const devices: FleetDevice[] = [];
    for (let i = 0; i < 4; i++) {
      const d = await makeDevice(t, tenant);
      devices.push({ deviceId: d.third_things_id, key: d.things_key, thingsId: d.id });
    }
    const health = async () => (await app.inject({ method: 'GET', url: '/v1/health' })).json() as { disk: string; status: string };
    expect(await health()).toMatchObject({ disk: 'ok' });

    const t0 = (Math.floor(Date.now() / 1000) - 3600) * 1_000_000;
    const fleet = streamFleet(`mqtt://127.0.0.1:${app.ctx.broker.port()}`, devices, { t0, window: 5 });
    await poll(fleet.ackedCount, (n) => n >= 200, { ms: 60_000, what: '200 batches acknowledged' });

    // Something else fills the disk to 4 MB under the watermark.
    const filler = path.join(dir, 'filler');
    const fill = freeBytes(dir) - (minMb - 4) * MB;
    expect(fill).toBeGreaterThan(0);
    const fd = fs.openSync(filler, 'w');
    const block = Buffer.alloc(MB, 1);
    for (let left = fill; left > 0; left -= MB) fs.writeSync(fd, block, 0, Math.min(MB, left));
    fs.closeSync(fd);
    expect(await poll(health, (h) => h.disk === 'low', { ms: 5000, what: 'health disk low' })).toMatchObject({
      status: 'degraded',
      disk: 'low',
    });
    // Refused: nothing more is acknowledged (but what was committed before), while devices keep trying.
    const atLow = fleet.ackedCount();
    const sentAtLow = fleet.sentCount();
    await new Promise((r) => setTimeout(r, 3000));
    expect(fleet.ackedCount() - atLow).toBeLessThanOrEqual(devices.length * 5);
    expect(freeBytes(dir)).toBeGreaterThan(0);

    fs.rmSync(filler);
    await poll(health, (h) => h.disk === 'ok', { ms: 5000, what: 'health disk ok again' });
    const back = fleet.ackedCount();
    await poll(fleet.ackedCount, (n) => n >= back + 200, { ms: 60_000, what: '200 more batches acknowledged' });
    await fleet.stop();
    const ids = devices.map((d) => d.thingsId);
    const result = await poll(
      async () => audit(fleet.acked, await storedBatches(app.ctx.database.raw, ids)),
      (a) => a.lost === 0,
      { ms: 30_000, what: 'every acknowledged batch stored' },
    );
    expect(result.doubled).toBe(0);
    expect(fleet.sentCount()).toBeGreaterThan(sentAtLow);
    await app.close();
    t = null;

    // The embedded database opens again on the same DATA_DIR, with every acknowledged batch.
    const again = await openDatabase({ url: null, dataDir });
    try {
      expect(audit(fleet.acked, await storedBatches(again.raw, ids)).lost).toBe(0);
    } finally {
      await again.close();
    }
    // The figures of the closing note.
    console.log(
      `disk low (${mounted ? '96 MB tmpfs' : 'watermark under free space'}, ${minMb} MB kept): sent ${fleet.sentCount()}, acknowledged ${result.acked} (${atLow} before the disk was low), stored ${result.stored}, lost ${result.lost}, doubled ${result.doubled}`,
    );
  }, 240_000);
});
