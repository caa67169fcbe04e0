import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvents } from '../src/lib/events.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';

describe('user messages', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  const created: AppEvents['message.created'][] = [];
  const updated: AppEvents['message.updated'][] = [];

  const url = (u: { tenantId: string; id: string }) => `/v1/tenant/tenants/${u.tenantId}/users/${u.id}/message`;
  const list = async (auth: string, u: { tenantId: string; id: string }, query = '') =>
    t.app.inject({ method: 'GET', url: `${url(u)}${query}`, headers: { authorization: auth } });
  const put = (auth: string, u: { tenantId: string; id: string }, payload: object) =>
    t.app.inject({ method: 'PUT', url: url(u), headers: { authorization: auth }, payload });

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t.app, t.database);
    b = await makeTenant(t.app, t.database);
    t.app.ctx.events.on('message.created', (e) => {
      created.push(e);
    });
    t.app.ctx.events.on('message.updated', (e) => {
      updated.push(e);
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a sent message, lists it unread and announces it on the event bus', async () => {
    const m = await t.app.ctx.messages.send(a.id, a.manager.id, {
      title: 'Device offline',
      content: 'Logger 1 went offline',
      type: 'alert',
    });
    expect(created.at(-1)).toMatchObject({
      tenantId: a.id,
      userId: a.manager.id,
      unread: 1,
      message: { id: m.id, messageTitle: 'Device offline' },
    });
    const res = await list(a.manager.auth, a.manager);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.unread).toBe(1);
    expect(body.total).toBe(1);
    expect(body.list[0]).toMatchObject({
      id: m.id,
      messageTitle: 'Device offline',
      messageContent: 'Logger 1 went offline',
      messageType: 'alert',
      read_status: 0,
      reminderMode: 1,
    });
    expect(Date.parse(body.list[0].send_time)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps HTML in a title as plain text, byte for byte', async () => {
    const title = '<script>alert("x")</script> & <b>bold</b>';
    const content = '<img src=x onerror=alert(1)>';
    const m = await t.app.ctx.messages.send(b.manager.tenantId, b.manager.id, { title, content, type: 'system', reminderMode: 2 });
    const res = await list(b.manager.auth, b.manager);
    const got = res.json().list.find((x: { id: string }) => x.id === m.id);
    expect(got.messageTitle).toBe(title);
    expect(got.messageContent).toBe(content);
    expect(got.reminderMode).toBe(2);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('refuses to send to a user of another tenant', async () => {
    await expect(t.app.ctx.messages.send(a.id, b.manager.id, { title: 'x', content: '', type: 'system' })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('pages newest first with page size 10 by default', async () => {
    // One second apart: two sends within the clock's resolution would tie on send_time.
    for (let i = 0; i < 12; i++) {
      const m = await t.app.ctx.messages.send(a.id, a.sub.id, { title: `m${i}`, content: '', type: 'system' });
      await t.database.raw.query(`update user_messages set send_time = now() - make_interval(secs => $2) where id = $1`, [m.id, 12 - i]);
    }
    const p1 = (await list(a.sub.auth, a.sub)).json();
    expect(p1.page_size).toBe(10);
    expect(p1.total).toBe(12);
    expect(p1.list).toHaveLength(10);
    expect(p1.list[0].messageTitle).toBe('m11');
    const p2 = (await list(a.sub.auth, a.sub, '?current_page=2')).json();
    expect(p2.list.map((m: { messageTitle: string }) => m.messageTitle)).toEqual(['m1', 'm0']);
  });

  it('marks one read, filters by read_status, marks all read, deletes one and all', async () => {
    const first = (await list(a.sub.auth, a.sub, '?page_size=50')).json().list;
    const target = first[3].id;

    const one = await put(a.sub.auth, a.sub, { user_message_id: target, read_status: 1 });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ updated: 1, unread: 11 });
    expect(updated.at(-1)).toEqual({ tenantId: a.id, userId: a.sub.id, unread: 11 });

    const read = (await list(a.sub.auth, a.sub, '?read_status=1')).json();
    expect(read.list.map((m: { id: string }) => m.id)).toEqual([target]);
    const unread = (await list(a.sub.auth, a.sub, '?read_status=0&page_size=50')).json();
    expect(unread.total).toBe(11);
    expect(unread.list.some((m: { id: string }) => m.id === target)).toBe(false);

    const del = await put(a.sub.auth, a.sub, { user_message_id: first[0].id, read_status: 2 });
    expect(del.json()).toEqual({ updated: 1, unread: 10 });
    expect((await list(a.sub.auth, a.sub, '?read_status=3&page_size=50')).json().total).toBe(11);
    expect((await list(a.sub.auth, a.sub, '?read_status=2')).json().list.map((m: { id: string }) => m.id)).toEqual([first[0].id]);
    // a deleted message cannot be changed again
    expect((await put(a.sub.auth, a.sub, { user_message_id: first[0].id, read_status: 1 })).statusCode).toBe(404);

    const all = await put(a.sub.auth, a.sub, { update_all: true, read_status: 1 });
    expect(all.json()).toEqual({ updated: 10, unread: 0 });
    expect((await list(a.sub.auth, a.sub, '?read_status=0')).json().total).toBe(0);
    const count = await t.app.inject({ method: 'GET', url: `${url(a.sub)}/unread-count`, headers: { authorization: a.sub.auth } });
    expect(count.json()).toEqual({ unread: 0 });

    const gone = await put(a.sub.auth, a.sub, { update_all: 1, read_status: 2 });
    expect(gone.json().updated).toBe(11);
    expect((await list(a.sub.auth, a.sub)).json()).toMatchObject({ total: 0, unread: 0, list: [] });
    expect((await list(a.sub.auth, a.sub, '?read_status=2')).json().total).toBe(12);
  });

  it('filters by platform', async () => {
    await t.app.ctx.messages.send(b.id, b.sub.id, { title: 'std', content: '', type: 'system' });
    await t.app.ctx.messages.send(b.id, b.sub.id, { title: 'ext', content: '', type: 'system', platform: 1 });
    const ext = (await list(b.sub.auth, b.sub, '?platform=1')).json();
    expect(ext.list.map((m: { messageTitle: string }) => m.messageTitle)).toEqual(['ext']);
    expect(ext.unread).toBe(1);
  });

  it('lets only the user read and change its own messages', async () => {
    const m = await t.app.ctx.messages.send(a.id, a.manager.id, { title: 'private', content: '', type: 'system' });
    // the manager of the tenant may not read its sub-user's inbox, nor the sub-user the manager's
    expect((await list(a.manager.auth, a.sub)).statusCode).toBe(403);
    expect((await list(a.sub.auth, a.manager)).statusCode).toBe(403);
    // another tenant, even naming its own user id under the wrong tenant
    expect((await list(b.manager.auth, a.manager)).statusCode).toBe(403);
    expect((await list(b.manager.auth, { tenantId: a.id, id: b.manager.id })).statusCode).toBe(403);
    expect((await put(b.manager.auth, a.manager, { update_all: true, read_status: 2 })).statusCode).toBe(403);
    // someone else's message id through one's own path: not found, and untouched
    expect((await put(b.manager.auth, b.manager, { user_message_id: m.id, read_status: 2 })).statusCode).toBe(404);
    expect((await list(a.manager.auth, a.manager)).json().list.some((x: { id: string }) => x.id === m.id)).toBe(true);
    // no token
    expect((await t.app.inject({ method: 'GET', url: url(a.manager) })).statusCode).toBe(401);
  });

  it('validates the update body', async () => {
    const both = await put(a.manager.auth, a.manager, {
      user_message_id: '00000000-0000-4000-8000-000000000000',
      update_all: true,
      read_status: 1,
    });
    expect(both.statusCode).toBe(400);
    expect((await put(a.manager.auth, a.manager, { read_status: 1 })).statusCode).toBe(400);
    expect((await put(a.manager.auth, a.manager, { update_all: true, read_status: 3 })).statusCode).toBe(400);
    expect((await list(a.manager.auth, { tenantId: 'nope', id: a.manager.id })).statusCode).toBe(400);
  });
});
