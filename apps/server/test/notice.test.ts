import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';

describe('announcements (notices)', () => {
  let t: TestApp;
  let admin: string;
  let a: TestTenant;
  let b: TestTenant;

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: auth }, payload });
  const create = async (payload: object) => {
    const res = await req('POST', '/v1/out-web/notice', admin, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const active = async (user: { id: string; auth: string }, query: string) => {
    const res = await req('GET', `/v1/out-web/notice/user/${user.id}?${query}`, user.auth);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().map((n: { title: string }) => n.title) as string[];
  };
  const hide = (user: { id: string; auth: string }, noticeId: string, noLongerShow: boolean | 0 | 1 = true) =>
    req('PUT', `/v1/out-web/notice/${noticeId}/user/${user.id}`, user.auth, { noLongerShow });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t.app, t.database);
    b = await makeTenant(t.app, t.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets a system manager create, read, list, update and delete a notice', async () => {
    const n = await create({
      title: 'Welcome',
      content: 'Hello <b>all</b>',
      startTime: '2030-01-01T00:00:00Z',
      endTime: Date.UTC(2030, 1, 1),
    });
    expect(n).toMatchObject({
      kind: 'notice',
      title: 'Welcome',
      content: 'Hello <b>all</b>',
      platform: null,
      isShow: true,
      startTime: '2030-01-01T00:00:00.000Z',
      endTime: '2030-02-01T00:00:00.000Z',
    });
    expect((await req('GET', `/v1/out-web/notice/${n.id}`, admin)).json().title).toBe('Welcome');
    const upd = await req('PUT', `/v1/out-web/notice/${n.id}`, admin, { title: 'Welcome!', isShow: 0 });
    expect(upd.json()).toMatchObject({ title: 'Welcome!', isShow: false, content: 'Hello <b>all</b>' });
    const page = (await req('GET', '/v1/out-web/notice?kind=notice', admin)).json();
    expect(page.list.map((x: { id: string }) => x.id)).toContain(n.id);
    expect((await req('DELETE', `/v1/out-web/notice/${n.id}`, admin)).statusCode).toBe(204);
    expect((await req('GET', `/v1/out-web/notice/${n.id}`, admin)).statusCode).toBe(404);
    expect((await req('DELETE', `/v1/out-web/notice/${n.id}`, admin)).statusCode).toBe(404);
  });

  it('refuses notice writes and the admin list to tenant users', async () => {
    expect((await req('POST', '/v1/out-web/notice', a.manager.auth, { title: 'x' })).statusCode).toBe(403);
    expect((await req('GET', '/v1/out-web/notice', a.manager.auth)).statusCode).toBe(403);
    const n = await create({ title: 'Keep' });
    expect((await req('PUT', `/v1/out-web/notice/${n.id}`, a.sub.auth, { title: 'Hacked' })).statusCode).toBe(403);
    expect((await req('DELETE', `/v1/out-web/notice/${n.id}`, a.manager.auth)).statusCode).toBe(403);
    await req('DELETE', `/v1/out-web/notice/${n.id}`, admin);
  });

  it('validates the time window and upgrade notices', async () => {
    const back = await req('POST', '/v1/out-web/notice', admin, {
      title: 'x',
      startTime: '2030-01-02T00:00:00Z',
      endTime: '2030-01-01T00:00:00Z',
    });
    expect(back.statusCode).toBe(400);
    expect(back.json().code).toBe('notice.bad-range');
    const noVersion = await req('POST', '/v1/out-web/notice', admin, {
      kind: 'upgrade',
      title: 'x',
      startTime: '2030-01-01T00:00:00Z',
      endTime: '2030-01-02T00:00:00Z',
    });
    expect(noVersion.json().code).toBe('notice.upgrade-needs-window');
    const n = await create({ title: 'w', startTime: '2030-01-01T00:00:00Z', endTime: '2030-01-03T00:00:00Z' });
    // an update is checked against the merged notice
    const bad = await req('PUT', `/v1/out-web/notice/${n.id}`, admin, { endTime: '2029-12-31T00:00:00Z' });
    expect(bad.statusCode).toBe(400);
    expect((await req('POST', '/v1/out-web/notice', admin, { title: '' })).statusCode).toBe(400);
    await req('DELETE', `/v1/out-web/notice/${n.id}`, admin);
  });

  it('shows a user the notices active at currentTime on its platform, minus the hidden ones', async () => {
    await create({ title: 'Spring', startTime: '2031-03-01T00:00:00Z', endTime: '2031-06-01T00:00:00Z' });
    await create({ title: 'Ext only', platform: 1, startTime: '2031-03-01T00:00:00Z', endTime: '2031-06-01T00:00:00Z' });
    await create({ title: 'Hidden by admin', isShow: false, startTime: '2031-03-01T00:00:00Z', endTime: '2031-06-01T00:00:00Z' });
    const spring = await create({ title: 'Spring 2', startTime: '2031-04-01T00:00:00Z', endTime: null });

    expect(await active(a.manager, 'currentTime=2031-02-01T00:00:00Z&platform=0')).toEqual([]);
    expect(await active(a.manager, `currentTime=${Date.UTC(2031, 3, 15)}&platform=0`)).toEqual(['Spring 2', 'Spring']);
    expect(await active(a.manager, 'currentTime=2031-04-15T00:00:00Z&platform=1')).toEqual(['Spring 2', 'Ext only', 'Spring']);
    expect(await active(a.manager, 'currentTime=2031-07-01T00:00:00Z&platform=0')).toEqual(['Spring 2']);

    expect((await hide(a.manager, spring.id)).json()).toEqual({ noticeId: spring.id, userId: a.manager.id, noLongerShow: true });
    expect(await active(a.manager, 'currentTime=2031-04-15T00:00:00Z&platform=0')).toEqual(['Spring']);
    // per user: the sub-user of the same tenant still sees it
    expect(await active(a.sub, 'currentTime=2031-04-15T00:00:00Z&platform=0')).toEqual(['Spring 2', 'Spring']);
    // and it can be shown again
    await hide(a.manager, spring.id, 0);
    expect(await active(a.manager, 'currentTime=2031-04-15T00:00:00Z&platform=0')).toEqual(['Spring 2', 'Spring']);
  });

  it('takes the caller’s tenant platform when the query names none', async () => {
    const c = await makeTenant(t.app, t.database);
    await t.database.raw.query('update tenants set platform = 1 where id = $1', [c.id]);
    await create({ title: 'Only extension', platform: 1, startTime: '2032-03-01T00:00:00Z', endTime: '2032-06-01T00:00:00Z' });
    await create({ title: 'Only standard', platform: 0, startTime: '2032-03-01T00:00:00Z', endTime: '2032-06-01T00:00:00Z' });
    const at = 'currentTime=2032-04-01T00:00:00Z';
    // notices of every platform from other tests may show too; only the targeted ones are compared
    const mine = async (u: { id: string; auth: string }, q: string) => (await active(u, q)).filter((x) => x.startsWith('Only '));
    expect(await mine(c.manager, at)).toEqual(['Only extension']);
    expect(await mine(c.sub, at)).toEqual(['Only extension']);
    expect(await mine(b.manager, at)).toEqual(['Only standard']);
    // a platform in the query still wins
    expect(await mine(b.manager, `${at}&platform=1`)).toEqual(['Only extension']);
  });

  it('shows the upgrade notice ahead of its window and lets a user hide it once per version', async () => {
    // spec §9: window 2023-01-06 09:00 to 14:00 (China time), version v1.3.1
    const v131 = await create({
      kind: 'upgrade',
      title: 'System upgrade v1.3.1',
      content: 'The console is unavailable during the upgrade.',
      version: 'v1.3.1',
      startTime: '2023-01-06T09:00:00+08:00',
      endTime: '2023-01-06T14:00:00+08:00',
      changes: ['Faster history curves', 'Quick delete'],
    });
    expect(v131.startTime).toBe('2023-01-06T01:00:00.000Z');
    expect(v131.changes).toEqual(['Faster history curves', 'Quick delete']);
    const at = (iso: string) => `currentTime=${encodeURIComponent(iso)}`;

    expect(await active(b.manager, at('2023-01-05T10:00:00+08:00'))).toEqual(['System upgrade v1.3.1']);
    expect(await active(b.manager, at('2023-01-06T13:59:00+08:00'))).toEqual(['System upgrade v1.3.1']);
    expect(await active(b.manager, at('2023-01-06T14:00:00+08:00'))).toEqual([]);

    expect((await hide(b.manager, v131.id, 1)).statusCode).toBe(200);
    expect(await active(b.manager, at('2023-01-05T10:00:00+08:00'))).toEqual([]);
    // a corrected notice of the same version stays hidden for that user…
    await create({
      kind: 'upgrade',
      title: 'System upgrade v1.3.1 (moved)',
      version: 'v1.3.1',
      startTime: '2023-01-07T09:00:00+08:00',
      endTime: '2023-01-07T14:00:00+08:00',
    });
    expect(await active(b.manager, at('2023-01-05T10:00:00+08:00'))).toEqual([]);
    // …a new version shows again, and other users still see both
    await create({
      kind: 'upgrade',
      title: 'System upgrade v1.3.2',
      version: 'v1.3.2',
      startTime: '2023-01-08T09:00:00+08:00',
      endTime: '2023-01-08T14:00:00+08:00',
    });
    expect(await active(b.manager, at('2023-01-05T10:00:00+08:00'))).toEqual(['System upgrade v1.3.2']);
    expect((await active(b.sub, at('2023-01-05T10:00:00+08:00'))).sort()).toEqual([
      'System upgrade v1.3.1',
      'System upgrade v1.3.1 (moved)',
      'System upgrade v1.3.2',
    ]);
  });

  it('keeps per-user notice state private', async () => {
    const n = await create({ title: 'Private state' });
    expect((await hide({ id: b.manager.id, auth: a.manager.auth }, n.id)).statusCode).toBe(403);
    expect((await req('GET', `/v1/out-web/notice/user/${b.manager.id}`, a.manager.auth)).statusCode).toBe(403);
    expect((await hide(a.manager, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await req('GET', `/v1/out-web/notice/user/${a.manager.id}?currentTime=yesterday`, a.manager.auth)).statusCode).toBe(400);
    // no currentTime: now
    expect(await active(b.sub, '')).toContain('Private state');
  });
});
