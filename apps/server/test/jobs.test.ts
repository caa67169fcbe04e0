import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { jobsService, nextRun } from '../src/modules/jobs/jobs.service.ts';
import { createTestApp, openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

const MINUTE = 60_000;
const sendCan = (thingsIds: string[]) => ({
  things_ids: thingsIds,
  operation_name: 'common_fn.send_can',
  operation_params: { frames: [{ id: '0x321', data: 'CAFE' }] },
});

describe('scheduled jobs: the API', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let dev: { id: string };
  const url = (tenant: TenantFixture, rest = '') => `/v1/job-mgmt/tenants/${tenant.tenantId}/jobs${rest}`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    dev = await makeDevice(t, a);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (tenant: TenantFixture, body: object, auth = tenant.auth) =>
    t.app.inject({ method: 'POST', url: url(tenant), headers: { authorization: auth }, payload: body });

  it('creates, lists, reads, edits, switches off and deletes a job', async () => {
    const res = await create(a, {
      name: 'ping every 5 min',
      cron_expression: '*/5 * * * *',
      handler_action_id: 'device-command',
      handler_custom_param: sendCan([dev.id]),
    });
    expect(res.statusCode).toBe(200);
    const job = res.json();
    expect(job).toMatchObject({ name: 'ping every 5 min', status: 1, execution_method: 0, retry_times: 0, retry_period: 60 });
    // The next run is the next multiple of five minutes (UTC).
    expect(job.next_run_time % (5 * MINUTE)).toBe(0);
    expect(job.next_run_time).toBeGreaterThan(Date.now());
    expect(job.next_run_time).toBeLessThanOrEqual(Date.now() + 5 * MINUTE);

    const list = (await t.app.inject({ method: 'GET', url: url(a), headers: { authorization: a.auth } })).json();
    expect(list).toMatchObject({ total: 1, page_size: 20, current_page: 1 });
    expect(list.list[0].id).toBe(job.id);

    const edited = await t.app.inject({
      method: 'PUT',
      url: url(a, `/${job.id}`),
      headers: { authorization: a.auth },
      payload: { ...job, name: 'ping hourly', cron_expression: '0 * * * *', handler_custom_param: sendCan([dev.id]) },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().next_run_time % (60 * MINUTE)).toBe(0);

    const off = await t.app.inject({ method: 'PUT', url: url(a, `/${job.id}/status/0`), headers: { authorization: a.auth } });
    expect(off.json()).toMatchObject({ status: 0, next_run_time: null });

    // Another tenant sees no such job.
    const foreign = await t.app.inject({ method: 'GET', url: url(b, `/${job.id}`), headers: { authorization: b.auth } });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url(a, `/${job.id}`), headers: { authorization: b.auth } })).statusCode).toBe(403);

    const del = await t.app.inject({ method: 'DELETE', url: url(a, `/${job.id}`), headers: { authorization: a.auth } });
    expect(del.statusCode).toBe(204);
    const gone = await t.app.inject({ method: 'GET', url: url(a, `/${job.id}`), headers: { authorization: a.auth } });
    expect(gone.json()).toMatchObject({ code: 'job.not-found' });
  });

  it('refuses a bad cron expression, bad parameters, bad times, a duplicate name and another tenant’s device', async () => {
    const base = { name: 'x', cron_expression: '* * * * *', handler_action_id: 'device-command', handler_custom_param: sendCan([dev.id]) };
    expect((await create(a, { ...base, cron_expression: '61 * * * *' })).json()).toMatchObject({
      code: 'job.bad-cron',
      field: 'cron_expression',
    });
    expect((await create(a, { ...base, cron_expression: 'every minute' })).statusCode).toBe(400);
    expect((await create(a, { ...base, handler_custom_param: { operation_name: 'x' } })).json()).toMatchObject({ code: 'job.bad-param' });
    expect((await create(a, { ...base, start_time: 2000, end_time: 1000 })).json()).toMatchObject({ code: 'job.bad-time' });
    expect((await create(a, { ...base, execution_method: 1 })).json()).toMatchObject({ code: 'job.bad-time', field: 'start_time' });
    expect((await create(a, { ...base, handler_action_id: 'format-disk' })).statusCode).toBe(400);
    expect((await create(a, { ...base, name: 'dup' })).statusCode).toBe(200);
    expect((await create(a, { ...base, name: 'dup' })).json()).toMatchObject({ code: 'job.duplicate' });
    // B may not schedule commands to A's device.
    const other = await create(b, { ...base, name: 'theirs' });
    expect(other.statusCode).toBeGreaterThanOrEqual(403);
    expect(other.statusCode).toBeLessThan(405);
    expect((await t.app.inject({ method: 'GET', url: url(b), headers: { authorization: b.auth } })).json().total).toBe(0);
  });

  it('enforces the job-mgmt keys for sub-users', async () => {
    const reader = await makeSubUser(t, a, ['job-mgmt:job:query'], [{ thingsId: dev.id, access: 'write' }]);
    const ok = await t.app.inject({ method: 'GET', url: url(a), headers: { authorization: reader.auth } });
    expect(ok.statusCode).toBe(200);
    const refused = await create(
      a,
      { name: 'sub', cron_expression: '* * * * *', handler_action_id: 'device-command', handler_custom_param: sendCan([dev.id]) },
      reader.auth,
    );
    expect(refused.statusCode).toBe(403);
    const logs = await t.app.inject({
      method: 'GET',
      url: `/v1/job-mgmt/tenants/${a.tenantId}/job-logs`,
      headers: { authorization: reader.auth },
    });
    expect(logs.statusCode).toBe(403);
  });

  it('computes next runs from the cron expression, start and end, and once-only jobs', () => {
    const at = Date.UTC(2026, 0, 1, 10, 7, 30);
    const j = { status: 1, execution_method: 0, cron_expression: '*/15 * * * *', start_time: null, end_time: null };
    expect(nextRun(j, at)).toBe(Date.UTC(2026, 0, 1, 10, 15));
    expect(nextRun({ ...j, start_time: new Date(Date.UTC(2026, 0, 2)) }, at)).toBe(Date.UTC(2026, 0, 2, 0, 0));
    expect(nextRun({ ...j, end_time: new Date(Date.UTC(2026, 0, 1, 10, 10)) }, at)).toBeNull();
    expect(nextRun({ ...j, execution_method: 1, start_time: new Date(Date.UTC(2026, 0, 1, 12, 0, 20)) }, at)).toBe(
      Date.UTC(2026, 0, 1, 12, 0),
    );
    expect(nextRun({ ...j, execution_method: 1, start_time: new Date(Date.UTC(2026, 0, 1, 9, 0)) }, at)).toBeNull();
    expect(nextRun({ ...j, status: 0 }, at)).toBeNull();
  });
});

describe('scheduled jobs on two server copies', () => {
  let shared: { database: Database; drop: () => Promise<void> };
  const dirs: string[] = [];
  let a: TestApp;
  let b: TestApp;
  let tenant: TenantFixture;
  let dev: { id: string };

  async function copy(port: number): Promise<TestApp> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-copy-'));
    dirs.push(dataDir);
    const config = testConfig({ dataDir, port, scheduler: true });
    const app = await buildApp(config, { database: shared.database, logger: false });
    await app.ready();
    return { app, config, database: shared.database, close: () => app.close() };
  }
  // The minute's sweep as each copy's scheduler runs it (the cron schedule fires it once a minute).
  const sweepOf = (t: TestApp) => jobsService({ raw: t.database.raw, commands: null as never, scheduler: t.app.ctx.scheduler }).sweep;
  const commandsSent = async () =>
    (await shared.database.raw.query<{ n: number }>('select count(*)::int as n from device_commands where things_id = $1', [dev.id]))
      .rows[0].n;
  const logs = async (jobId: string) =>
    (
      await a.app.inject({
        method: 'GET',
        url: `/v1/job-mgmt/tenants/${tenant.tenantId}/job-logs?job_id=${jobId}`,
        headers: { authorization: tenant.auth },
      })
    ).json();

  beforeAll(async () => {
    shared = await openTestDatabase();
    a = await copy(42001);
    b = await copy(42002);
    tenant = await makeTenant(a);
    dev = await makeDevice(a, tenant);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('keeps one sweep schedule for the deployment, every minute', async () => {
    for (const t of [a, b]) expect(await t.app.ctx.scheduler?.schedules()).toContainEqual({ name: 'tenant-job-sweep', cron: '* * * * *' });
  });

  it('runs a job due every minute once per minute, whichever copies sweep', async () => {
    const res = await a.app.inject({
      method: 'POST',
      url: `/v1/job-mgmt/tenants/${tenant.tenantId}/jobs`,
      headers: { authorization: tenant.auth },
      payload: {
        name: 'every minute',
        cron_expression: '* * * * *',
        handler_action_id: 'device-command',
        handler_custom_param: sendCan([dev.id]),
      },
    });
    expect(res.statusCode).toBe(200);
    const job = res.json();
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE;
    for (let i = 0; i < 3; i++) {
      // Both copies sweep the same minute at the same time: one run is queued.
      const queued = await Promise.all([sweepOf(a)(minute + i * MINUTE + 50), sweepOf(b)(minute + i * MINUTE + 900)]);
      expect(queued.flat().filter((id) => id === job.id)).toHaveLength(1);
      const seen = await poll(
        () => logs(job.id),
        (l) => l.list.filter((x: { state: string }) => x.state === 'succeeded').length === i + 1,
        { ms: 20_000 },
      );
      expect(seen.list.filter((x: { state: string }) => x.state === 'succeeded')).toHaveLength(i + 1);
    }
    const l = await logs(job.id);
    expect(l.total).toBe(3);
    expect(l.list.map((x: { scheduled_time: number }) => x.scheduled_time).sort()).toEqual([minute, minute + MINUTE, minute + 2 * MINUTE]);
    expect(l.list[0].result.commands[0]).toMatchObject({ things_id: dev.id });
    expect(await commandsSent()).toBe(3);
    // Off, so that the real sweep of the coming minutes leaves it alone.
    await a.app.inject({
      method: 'PUT',
      url: `/v1/job-mgmt/tenants/${tenant.tenantId}/jobs/${job.id}/status/0`,
      headers: { authorization: tenant.auth },
    });
  });

  it('sends a group command to the group’s members from a group-command job', async () => {
    const call = (method: 'POST' | 'GET', url: string, payload?: object) =>
      a.app.inject({ method, url: `/v1${url}`, headers: { authorization: tenant.auth }, payload });
    const group = await call('POST', `/out-group-mgmt/tenants/${tenant.tenantId}/groups`, { name: 'trucks' });
    expect(group.statusCode, group.body).toBeLessThan(300);
    const gid = group.json().id;
    expect((await call('POST', `/out-group-mgmt/tenants/${tenant.tenantId}/groups/${gid}/bind`, { things_ids: [dev.id] })).statusCode).toBe(
      200,
    );
    const body = {
      name: 'group ping',
      cron_expression: '* * * * *',
      handler_action_id: 'group-command',
      handler_custom_param: {
        group_id: gid,
        operation_name: 'common_fn.send_can',
        operation_params: { frames: [{ id: '0x321', data: 'CAFE' }] },
      },
      status: 0,
    };
    const unknown = await call('POST', `/job-mgmt/tenants/${tenant.tenantId}/jobs`, {
      ...body,
      handler_custom_param: { ...body.handler_custom_param, group_id: '00000000-0000-4000-8000-000000000001' },
    });
    expect(unknown.json().code).toBe('group.not-found');
    const res = await call('POST', `/job-mgmt/tenants/${tenant.tenantId}/jobs`, body);
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    await a.app.inject({
      method: 'PUT',
      url: `/v1/job-mgmt/tenants/${tenant.tenantId}/jobs/${job.id}/status/1`,
      headers: { authorization: tenant.auth },
    });
    const before = await commandsSent();
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE + 20 * MINUTE;
    expect(await sweepOf(a)(minute)).toContain(job.id);
    const l = await poll(
      () => logs(job.id),
      (x) => x.list.some((y: { state: string; scheduled_time: number }) => y.state === 'succeeded' && y.scheduled_time === minute),
      { ms: 20_000 },
    );
    const run = l.list.find((y: { scheduled_time: number; state: string }) => y.scheduled_time === minute && y.state === 'succeeded');
    expect(run.result.group_command).toEqual(expect.any(String));
    expect(run.result.commands.map((c: { things_id: string }) => c.things_id)).toEqual([dev.id]);
    expect(await commandsSent()).toBeGreaterThan(before);
    const cmds = await call('GET', `/out-group-mgmt/tenants/${tenant.tenantId}/groups/${gid}/commands`);
    expect(cmds.json().list.map((c: { id: string }) => c.id)).toContain(run.result.group_command);
    await a.app.inject({
      method: 'PUT',
      url: `/v1/job-mgmt/tenants/${tenant.tenantId}/jobs/${job.id}/status/0`,
      headers: { authorization: tenant.auth },
    });
  });

  it('retries a failing run and logs each try', async () => {
    const sub = await makeSubUser(
      a,
      tenant,
      ['job-mgmt:job:create', 'job-mgmt:job:query', 'job-mgmt:job-log:query'],
      [{ thingsId: dev.id, access: 'write' }],
    );
    const res = await a.app.inject({
      method: 'POST',
      url: `/v1/job-mgmt/tenants/${tenant.tenantId}/jobs`,
      headers: { authorization: sub.auth },
      payload: {
        name: 'retried',
        cron_expression: '* * * * *',
        handler_action_id: 'device-command',
        handler_custom_param: sendCan([dev.id]),
        retry_times: 1,
        retry_period: 1,
      },
    });
    expect(res.statusCode).toBe(200);
    const job = res.json();
    // The author leaves: the job may no longer act for anyone.
    await shared.database.raw.query('update users set status = 0 where id = $1', [sub.userId]);
    const before = await commandsSent();
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE + 10 * MINUTE;
    expect(await sweepOf(b)(minute)).toContain(job.id);
    // This minute's tries (the real sweep may run the job in the current minute too: other rows).
    const ofMinute = async () => (await logs(job.id)).list.filter((x: { scheduled_time: number }) => x.scheduled_time === minute);
    const l = await poll(ofMinute, (x) => x.filter((y: { state: string }) => y.state === 'failed').length === 2, { ms: 20_000 });
    expect(l.map((x: { attempt: number; state: string }) => [x.attempt, x.state]).sort()).toEqual([
      [1, 'failed'],
      [2, 'failed'],
    ]);
    expect(l[0].message).toMatch(/no longer an active user/);
    expect(await commandsSent()).toBe(before);
  });
});
