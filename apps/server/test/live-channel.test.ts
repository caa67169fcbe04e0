import { LIVE_MAX_SUBSCRIPTIONS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * The console's one live channel: a tab's single socket carries subscriptions of several kinds,
 * each authorised on its own (tenant, permission key, device) and refused alone.
 */
let t: TestApp;
let port: number;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  b = await makeTenant(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t?.close();
});

type Msg = { t: string; id?: string; code?: string; things_id?: string; unread?: number; online?: boolean; kind?: string };

async function open(auth: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/live?token=${auth.slice('Bearer '.length)}`);
  const got: Msg[] = [];
  let closed = false;
  ws.on('message', (raw) => got.push(JSON.parse(String(raw))));
  ws.on('close', () => {
    closed = true;
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (pred: (m: Msg) => boolean, what: string, from = 0) => {
    const seen = await poll(
      () => ({ found: got.slice(from).find(pred), got }),
      (s) => s.found !== undefined,
      { ms: 10_000, every: 20, what },
    );
    return seen.found as Msg;
  };
  return { ws, got, next, send: (m: object) => ws.send(JSON.stringify(m)), closed: () => closed };
}

describe('one live socket', () => {
  it('carries frames and the message bell together; each push names its subscription', async () => {
    const dev = await makeDevice(t, a);
    const s = await open(a.auth);
    s.send({ op: 'subscribe', id: 'trace', kind: 'frames', things_id: dev.id });
    s.send({ op: 'subscribe', id: 'bell', kind: 'messages' });
    expect(await s.next((m) => m.t === 'subscribed' && m.id === 'trace', 'frames subscribed')).toEqual({
      t: 'subscribed',
      id: 'trace',
      kind: 'frames',
      things_id: dev.id,
    });
    expect(await s.next((m) => m.t === 'subscribed' && m.id === 'bell', 'bell subscribed')).toEqual({
      t: 'subscribed',
      id: 'bell',
      kind: 'messages',
    });
    expect(t.app.ctx.ingest.live.watching(dev.id)).toBe(true);

    t.app.ctx.ingest.live.publishStatus(dev.id, true);
    await t.app.ctx.messages.send(a.tenantId, a.managerId, { title: 'Hi', content: 'x', type: 'system', reminderMode: 1 });
    expect(await s.next((m) => m.t === 'status', 'status')).toEqual({ t: 'status', id: 'trace', things_id: dev.id, online: true });
    expect(await s.next((m) => m.t === 'unread', 'unread')).toMatchObject({ t: 'unread', id: 'bell' });

    // Unsubscribing one leaves the other.
    s.send({ op: 'unsubscribe', id: 'trace' });
    await poll(
      () => t.app.ctx.ingest.live.watching(dev.id),
      (watching) => !watching,
      { ms: 5_000, every: 20, what: 'the trace to be unwatched' },
    );
    const from = s.got.length;
    await t.app.ctx.messages.send(a.tenantId, a.managerId, { title: 'Again', content: 'x', type: 'system', reminderMode: 1 });
    await s.next((m) => m.t === 'unread', 'unread after unsubscribing the trace', from);
    expect(s.closed()).toBe(false);
    s.ws.close();
  });

  it("refuses a subscription to another tenant's device, and the socket's other subscriptions go on", async () => {
    const mine = await makeDevice(t, a);
    const theirs = await makeDevice(t, b);
    const s = await open(a.auth);
    s.send({ op: 'subscribe', id: 'mine', kind: 'frames', things_id: mine.id });
    s.send({ op: 'subscribe', id: 'theirs', kind: 'frames', things_id: theirs.id });
    s.send({ op: 'subscribe', id: 'their-signals', kind: 'signals', things_id: theirs.id });
    // Naming the other tenant outright: refused on the tenant, before the device is looked at.
    s.send({ op: 'subscribe', id: 'their-ops', kind: 'remote', tenant_id: b.tenantId, things_id: theirs.id });
    s.send({ op: 'subscribe', id: 'their-runs', kind: 'test-runs', tenant_id: b.tenantId });
    await s.next((m) => m.t === 'subscribed' && m.id === 'mine', 'own device subscribed');
    expect(await s.next((m) => m.id === 'theirs', 'answer for the other device')).toMatchObject({
      t: 'error',
      code: 'http.404',
      things_id: theirs.id,
    });
    expect(await s.next((m) => m.id === 'their-signals', 'answer for its signals')).toMatchObject({ t: 'error', code: 'http.404' });
    expect(await s.next((m) => m.id === 'their-ops', 'answer for its operations')).toMatchObject({ t: 'error', code: 'http.403' });
    expect(await s.next((m) => m.id === 'their-runs', 'answer for its runs')).toMatchObject({ t: 'error', code: 'http.403' });
    expect(t.app.ctx.ingest.live.watching(theirs.id)).toBe(false);
    expect(t.app.ctx.ingest.live.watchingSignals(theirs.id)).toBe(false);
    // Its pushes never reach this socket; the own device's do.
    const from = s.got.length;
    t.app.ctx.ingest.live.publishStatus(theirs.id, true);
    t.app.ctx.ingest.live.publishStatus(mine.id, true);
    await s.next((m) => m.t === 'status', 'status of the own device', from);
    expect(s.got.slice(from).filter((m) => m.t === 'status')).toEqual([{ t: 'status', id: 'mine', things_id: mine.id, online: true }]);
    expect(s.closed()).toBe(false);
    s.ws.close();
  });

  it("checks each kind's key: a sub-user without the data key gets the bell but no trace", async () => {
    const dev = await makeDevice(t, a);
    const sub = await makeSubUser(t, a, ['things:message:query'], [{ thingsId: dev.id, access: 'read' }]);
    const s = await open(sub.auth);
    s.send({ op: 'subscribe', id: 'trace', kind: 'frames', things_id: dev.id });
    s.send({ op: 'subscribe', id: 'bell', kind: 'messages' });
    s.send({ op: 'subscribe', id: 'ops', kind: 'remote', tenant_id: a.tenantId, things_id: dev.id });
    expect(await s.next((m) => m.id === 'trace', 'answer for the trace')).toMatchObject({ t: 'error', code: 'http.403' });
    expect(await s.next((m) => m.id === 'bell', 'answer for the bell')).toMatchObject({ t: 'subscribed' });
    expect(await s.next((m) => m.id === 'ops', 'answer for the operations')).toMatchObject({ t: 'subscribed', kind: 'remote' });
    expect(t.app.ctx.ingest.live.watching(dev.id)).toBe(false);
    s.ws.close();
  });

  it('answers a message it does not understand, and too many subscriptions, without closing', async () => {
    const s = await open(a.auth);
    s.ws.send('{nope');
    s.send({ op: 'subscribe', kind: 'messages' });
    await s.next((m) => m.t === 'error' && !m.id, 'error');
    for (let i = 0; i <= LIVE_MAX_SUBSCRIPTIONS; i++) s.send({ op: 'subscribe', id: `b${i}`, kind: 'messages' });
    expect(await s.next((m) => m.t === 'error' && m.id === `b${LIVE_MAX_SUBSCRIPTIONS}`, 'refusal')).toMatchObject({ code: 'http.429' });
    await s.next((m) => m.t === 'subscribed' && m.id === `b${LIVE_MAX_SUBSCRIPTIONS - 1}`, 'the last one allowed');
    expect(s.got.filter((m) => m.t === 'error' && !m.id).map((m) => m.code)).toEqual(['http.400', 'http.400']);
    expect(s.closed()).toBe(false);
    s.ws.close();
  });
});
