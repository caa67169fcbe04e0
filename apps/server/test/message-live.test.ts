import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

let t: TestApp;
let a: TenantFixture;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t?.close();
});

/** Opens the live socket with a subscription to the bell (`messages`) and collects what it receives. */
async function open(token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/live?token=${token}`);
  ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'bell', kind: 'messages' })));
  const got: { t: string; id?: string; unread?: number; code?: string }[] = [];
  ws.on('message', (raw) => {
    got.push(JSON.parse(String(raw)));
  });
  const next = async (pred: (m: (typeof got)[number]) => boolean) => {
    const seen = await poll(
      () => ({ found: got.find(pred), got }),
      (s) => s.found !== undefined,
      { ms: 10_000, every: 20, what: `a message satisfying ${pred}` },
    );
    return seen.found as (typeof got)[number];
  };
  return { ws, got, next };
}

describe('message push', () => {
  it("pushes the user's unread count when a message arrives and when it is read, and only to that user", async () => {
    const sub = await makeSubUser(t, a, []);
    const me = await open(a.auth.slice('Bearer '.length));
    const other = await open(sub.auth.slice('Bearer '.length));
    await me.next((m) => m.t === 'subscribed');
    await other.next((m) => m.t === 'subscribed');

    const msg = await t.app.ctx.messages.send(a.tenantId, a.managerId, { title: 'Alarm', content: 'x', type: 'alert', reminderMode: 1 });
    expect(await me.next((m) => m.t === 'unread')).toEqual({ t: 'unread', id: 'bell', unread: 1 });

    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${a.tenantId}/users/${a.managerId}/message`,
      headers: { authorization: a.auth },
      payload: { user_message_id: msg.id, read_status: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await me.next((m) => m.t === 'unread' && m.unread === 0)).toEqual({ t: 'unread', id: 'bell', unread: 0 });
    expect(other.got.filter((m) => m.t === 'unread')).toEqual([]);
    me.ws.close();
    other.ws.close();
  });

  it('refuses a socket without a valid session', async () => {
    const bad = await open('forged');
    expect(await bad.next((m) => m.t === 'error')).toMatchObject({ code: 'http.401' });
  });
});
