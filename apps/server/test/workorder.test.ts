import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { adminIds, makeTenant, type TestTenant } from './message.fixtures.ts';

const GRANTS = ['workorder:workorder:create', 'workorder:workorder:query'];
const STATUSES = ['pending', 'process', 'wait', 'done', 'abandon', 'refuse'] as const;
type Status = (typeof STATUSES)[number];

/** The transitions docs/workorders.md promises, written out by hand. */
const ALLOWED: Record<string, 'initiator' | 'handler'> = {
  'pending>abandon': 'initiator',
  'pending>process': 'handler',
  'pending>refuse': 'handler',
  'process>wait': 'handler',
  'process>done': 'handler',
  'process>refuse': 'handler',
  'wait>process': 'initiator',
  'wait>done': 'initiator',
};

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);

function multipart(name: string, bytes: Buffer, type = 'application/octet-stream') {
  const boundary = '----loggerheadtest';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('work orders', () => {
  let t: TestApp;
  let admin: string;
  let a: TestTenant;
  let b: TestTenant;

  const req = (method: 'GET' | 'POST' | 'PUT', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: auth }, payload });
  const base = (tenant: TestTenant) => `/v1/workorder/tenants/${tenant.id}`;
  const create = async (tenant: TestTenant, auth: string, extra: object = {}) => {
    const res = await req('POST', `${base(tenant)}/work-orders`, auth, {
      name: 'Logger does not upload',
      feedback_type: 'fault',
      belong_function: 'device data',
      phone: '13800138000',
      description: 'No frames since Monday',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const asInitiator = (tenant: TestTenant, auth: string, id: string, to: string, payload: object = {}) =>
    req('PUT', `${base(tenant)}/work-orders/${id}/status/${to}`, auth, payload);
  const asHandler = (id: string, to: string, payload: object = {}) =>
    req('PUT', `/v1/workorder/work-orders/${id}/status/${to}`, admin, payload);
  const upload = (tenant: TestTenant, auth: string, name: string, bytes: Buffer) =>
    t.app.inject({ method: 'POST', url: `${base(tenant)}/images`, ...withAuth(multipart(name, bytes), auth) });
  const withAuth = (m: ReturnType<typeof multipart>, auth: string) => ({
    payload: m.payload,
    headers: { ...m.headers, authorization: auth },
  });

  /** An order of tenant a, started by its sub-user, brought to `status` along documented paths. */
  async function orderIn(status: Status): Promise<string> {
    const o = await create(a, a.sub.auth);
    const path: Record<Status, ['i' | 'h', string][]> = {
      pending: [],
      process: [['h', 'process']],
      wait: [
        ['h', 'process'],
        ['h', 'wait'],
      ],
      done: [
        ['h', 'process'],
        ['h', 'done'],
      ],
      abandon: [['i', 'abandon']],
      refuse: [['h', 'refuse']],
    };
    for (const [who, to] of path[status]) {
      const res = who === 'h' ? await asHandler(o.id, to) : await asInitiator(a, a.sub.auth, o.id, to);
      expect(res.statusCode, res.body).toBe(200);
    }
    return o.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t.app, t.database, GRANTS);
    b = await makeTenant(t.app, t.database, GRANTS);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a pending order with an identifier, images and a first history entry', async () => {
    const img = await upload(a, a.sub.auth, 'screen.png', PNG);
    expect(img.statusCode, img.body).toBe(201);
    expect(img.json()).toMatchObject({ name: 'screen.png', mime: 'image/png', size: PNG.length });
    const o = await create(a, a.sub.auth, { images: [img.json().id] });
    expect(o).toMatchObject({
      status: 'pending',
      tenant_id: a.id,
      tenant_name: a.name,
      feedback_type: 'fault',
      initiator: { id: a.sub.id, name: 'helper' },
      handler: null,
      images: [{ id: img.json().id, name: 'screen.png' }],
    });
    expect(o.identifier).toMatch(/^WO\d{8}\d{6}$/);
    expect(o.history).toEqual([{ from: null, to: 'pending', by: { id: a.sub.id, name: 'helper' }, remark: '', at: expect.any(String) }]);

    const got = await req('GET', `${base(a)}/images/${img.json().id}`, a.sub.auth);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect((await req('GET', `/v1/workorder/images/${img.json().id}`, admin)).rawPayload.equals(PNG)).toBe(true);
    // another tenant cannot read it, nor attach it
    expect((await req('GET', `${base(b)}/images/${img.json().id}`, b.manager.auth)).statusCode).toBe(404);
    expect((await req('GET', `${base(a)}/images/${img.json().id}`, b.manager.auth)).statusCode).toBe(403);
    const stolen = await req('POST', `${base(b)}/work-orders`, b.manager.auth, {
      name: 'x',
      feedback_type: 'other',
      phone: '13800138000',
      description: 'x',
      images: [img.json().id],
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe('workorder.image-unknown');
  });

  it('accepts only real images up to 2 MB, at most 5 per order', async () => {
    const html = await upload(a, a.manager.auth, 'evil.png', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(html.statusCode).toBe(415);
    expect(html.json().code).toBe('workorder.image-invalid');
    const big = await upload(a, a.manager.auth, 'big.png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('workorder.image-too-large');
    const exact = await upload(a, a.manager.auth, 'max.png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length)]));
    expect(exact.statusCode).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await upload(a, a.manager.auth, `s${i}.png`, PNG)).json().id);
    const six = await req('POST', `${base(a)}/work-orders`, a.manager.auth, {
      name: 'x',
      feedback_type: 'other',
      phone: '13800138000',
      description: 'x',
      images: ids,
    });
    expect(six.statusCode).toBe(400);
    const five = await create(a, a.manager.auth, { images: ids.slice(0, 5) });
    expect(five.images.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 5));
    // an image is attached once
    const again = await req('POST', `${base(a)}/work-orders`, a.manager.auth, {
      name: 'x',
      feedback_type: 'other',
      phone: '13800138000',
      description: 'x',
      images: [ids[0]],
    });
    expect(again.json().code).toBe('workorder.image-unknown');
  });

  it('allows exactly the documented transitions, each to its side', async () => {
    for (const from of STATUSES) {
      // one order per source status takes every refused attempt; it must stay put
      const stay = await orderIn(from);
      for (const to of STATUSES) {
        for (const side of ['initiator', 'handler'] as const) {
          const allowed = ALLOWED[`${from}>${to}`];
          if (allowed === side) {
            const id = await orderIn(from);
            const res =
              side === 'handler'
                ? await asHandler(id, to, { remark: `${from}->${to}` })
                : await asInitiator(a, a.sub.auth, id, to, { remark: `${from}->${to}` });
            expect(res.statusCode, `${side} ${from}->${to}: ${res.body}`).toBe(200);
            expect(res.json().status).toBe(to);
            expect(res.json().history.at(-1)).toMatchObject({ from, to, remark: `${from}->${to}` });
          } else {
            const res = side === 'handler' ? await asHandler(stay, to) : await asInitiator(a, a.sub.auth, stay, to);
            const expected = allowed ? { status: 403, code: 'workorder.not-allowed' } : { status: 409, code: 'workorder.bad-transition' };
            expect({ status: res.statusCode, code: res.json().code }, `${side} ${from}->${to}`).toEqual(expected);
          }
        }
      }
      const still = await req('GET', `${base(a)}/work-orders/${stay}`, a.sub.auth);
      expect(still.json().status).toBe(from);
    }
  });

  it('records every change in the history and messages the initiator each time', async () => {
    const before = (await req('GET', `/v1/tenant/tenants/${a.id}/users/${a.sub.id}/message?page_size=100`, a.sub.auth)).json().total;
    const o = await create(a, a.sub.auth);
    await asHandler(o.id, 'process', { remark: 'Looking into it' });
    await asHandler(o.id, 'wait', { remark: 'Fixed on our side, please check' });
    await asInitiator(a, a.sub.auth, o.id, 'process', { remark: 'Still broken' });
    await asHandler(o.id, 'wait');
    const done = await asInitiator(a, a.sub.auth, o.id, 'done', { remark: 'Works now' });
    const { id: adminId } = await adminIds(t.database);
    const d = done.json();
    expect(d.handler).toEqual({ id: adminId, name: 'admin' });
    expect(d.remark).toBe('Works now');
    expect(d.history.map((h: { from: string | null; to: string; by: { id: string } }) => [h.from, h.to, h.by.id])).toEqual([
      [null, 'pending', a.sub.id],
      ['pending', 'process', adminId],
      ['process', 'wait', adminId],
      ['wait', 'process', a.sub.id],
      ['process', 'wait', adminId],
      ['wait', 'done', a.sub.id],
    ]);
    const inbox = (await req('GET', `/v1/tenant/tenants/${a.id}/users/${a.sub.id}/message?page_size=100`, a.sub.auth)).json();
    expect(inbox.total - before).toBe(5);
    expect(inbox.list[0]).toMatchObject({ messageType: 'workorder', messageTitle: `Work order ${o.identifier} is done` });
    expect(inbox.list.map((m: { messageContent: string }) => m.messageContent)).toContain(
      'Logger does not upload: Fixed on our side, please check',
    );
    // the system manager heard of the new order
    const adminInbox = (
      await req('GET', `/v1/tenant/tenants/${(await adminIds(t.database)).tenantId}/users/${adminId}/message?page_size=100`, admin)
    ).json();
    expect(adminInbox.list.some((m: { messageTitle: string }) => m.messageTitle === `New work order ${o.identifier}`)).toBe(true);
  });

  it('writes the messages in the reader’s console language', async () => {
    const o = await create(a, a.sub.auth);
    await asHandler(o.id, 'process', { remark: '正在处理' });
    const inbox = async (lang?: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/v1/tenant/tenants/${a.id}/users/${a.sub.id}/message?page_size=1`,
          headers: { authorization: a.sub.auth, ...(lang ? { 'accept-language': lang } : {}) },
        })
      ).json().list[0];
    expect(await inbox('zh-CN,zh;q=0.9,en;q=0.8')).toMatchObject({
      messageTitle: `工单 ${o.identifier} 处理中`,
      messageContent: 'Logger does not upload: 正在处理',
    });
    expect((await inbox('en-GB, zh;q=0.5')).messageTitle).toBe(`Work order ${o.identifier} is in process`);
    // no preference (or an unknown one): the stored English text
    expect((await inbox()).messageTitle).toBe(`Work order ${o.identifier} is in process`);
    expect((await inbox('fr')).messageTitle).toBe(`Work order ${o.identifier} is in process`);
    const { id: adminId, tenantId } = await adminIds(t.database);
    const adminInbox = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/tenant/tenants/${tenantId}/users/${adminId}/message?page_size=100`,
        headers: { authorization: admin, 'accept-language': 'zh' },
      })
    ).json();
    expect(adminInbox.list.some((m: { messageTitle: string }) => m.messageTitle === `新工单 ${o.identifier}`)).toBe(true);
  });

  it('lets either side reply while the order is being handled, keeping its status', async () => {
    const reply = (auth: string, id: string, remark: string) => req('POST', `${base(a)}/work-orders/${id}/replies`, auth, { remark });
    const replyAsHandler = (id: string, remark: string) => req('POST', `/v1/workorder/work-orders/${id}/replies`, admin, { remark });
    const pending = await orderIn('pending');
    expect((await reply(a.sub.auth, pending, 'Any news?')).json().code).toBe('workorder.not-open');
    expect((await replyAsHandler(pending, 'Seen')).statusCode).toBe(409);

    const id = await orderIn('process');
    const { id: adminId, tenantId: adminTenant } = await adminIds(t.database);
    const adminBefore = (await req('GET', `/v1/tenant/tenants/${adminTenant}/users/${adminId}/message?page_size=100`, admin)).json().total;
    const res = await reply(a.sub.auth, id, '  It fails only on logger 7  ');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().status).toBe('process');
    const last = res.json().history.at(-1);
    expect(last).toMatchObject({ from: 'process', to: 'process', remark: 'It fails only on logger 7', by: { id: a.sub.id } });
    // the handler hears of it
    const adminInbox = (await req('GET', `/v1/tenant/tenants/${adminTenant}/users/${adminId}/message?page_size=100`, admin)).json();
    expect(adminInbox.total - adminBefore).toBe(1);
    expect(adminInbox.list[0].messageContent).toBe('Logger does not upload: It fails only on logger 7');

    // and answers; the initiator hears of it
    const subBefore = (await req('GET', `/v1/tenant/tenants/${a.id}/users/${a.sub.id}/message?page_size=1`, a.sub.auth)).json().total;
    const answered = await replyAsHandler(id, 'Please send its log');
    expect(answered.statusCode, answered.body).toBe(201);
    expect(answered.json().history.map((h: { from: string | null; to: string }) => `${h.from}>${h.to}`)).toEqual([
      'null>pending',
      'pending>process',
      'process>process',
      'process>process',
    ]);
    const subInbox = (await req('GET', `/v1/tenant/tenants/${a.id}/users/${a.sub.id}/message?page_size=1`, a.sub.auth)).json();
    expect(subInbox.total - subBefore).toBe(1);
    expect(subInbox.list[0].messageContent).toBe('Logger does not upload: Please send its log');

    // a reply says something; other tenants and the handler's route are closed to a tenant
    expect((await reply(a.sub.auth, id, '   ')).statusCode).toBe(400);
    expect((await reply(a.sub.auth, id, 'x'.repeat(501))).statusCode).toBe(400);
    expect((await req('POST', `${base(b)}/work-orders/${id}/replies`, b.manager.auth, { remark: 'hi' })).statusCode).toBe(404);
    expect((await req('POST', `/v1/workorder/work-orders/${id}/replies`, a.manager.auth, { remark: 'hi' })).statusCode).toBe(403);
    // a finished order takes no more replies
    expect((await asHandler(id, 'done')).statusCode).toBe(200);
    expect((await reply(a.sub.auth, id, 'Thanks')).statusCode).toBe(409);
  });

  it('lists with filters; a sub-user sees its own orders, the manager the tenant, the system side all', async () => {
    const mine = await create(b, b.sub.auth, { name: 'Sub order', feedback_type: 'question' });
    const boss = await create(b, b.manager.auth, { name: 'Manager 100%_order', feedback_type: 'suggestion' });
    await asHandler(boss.id, 'process');
    const list = async (auth: string, q: string) => (await req('GET', `${base(b)}/work-orders?${q}`, auth)).json();
    expect((await list(b.sub.auth, '')).list.map((o: { id: string }) => o.id)).toEqual([mine.id]);
    expect((await list(b.manager.auth, '')).list.map((o: { id: string }) => o.id)).toEqual([boss.id, mine.id]);
    expect((await list(b.manager.auth, 'status=process')).list.map((o: { id: string }) => o.id)).toEqual([boss.id]);
    expect((await list(b.manager.auth, 'feedback_type=question')).list.map((o: { id: string }) => o.id)).toEqual([mine.id]);
    expect((await list(b.manager.auth, `name=${encodeURIComponent('100%_')}`)).list.map((o: { id: string }) => o.id)).toEqual([boss.id]);
    expect((await list(b.manager.auth, 'name=sub')).total).toBe(1);
    expect((await list(b.manager.auth, `start_time=${Date.now() + 60_000}`)).total).toBe(0);
    expect((await list(b.manager.auth, `end_time=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(2);
    expect((await req('GET', `${base(b)}/work-orders?start_time=soon`, b.manager.auth)).statusCode).toBe(400);
    // the sub-user cannot open the manager's order
    expect((await req('GET', `${base(b)}/work-orders/${boss.id}`, b.sub.auth)).statusCode).toBe(404);
    const all = (await req('GET', `/v1/workorder/work-orders?tenant_id=${b.id}&page_size=50`, admin)).json();
    expect(all.total).toBe(2);
    const every = (await req('GET', '/v1/workorder/work-orders?page_size=5', admin)).json();
    expect(every.total).toBeGreaterThan(2);
    expect(every.list).toHaveLength(5);
  });

  it('refuses other tenants and non-handlers', async () => {
    const o = await create(a, a.manager.auth);
    expect((await req('GET', `${base(b)}/work-orders/${o.id}`, b.manager.auth)).statusCode).toBe(404);
    expect((await req('GET', `${base(a)}/work-orders/${o.id}`, b.manager.auth)).statusCode).toBe(403);
    expect((await req('GET', `${base(a)}/work-orders`, b.manager.auth)).statusCode).toBe(403);
    expect((await asInitiator(b, b.manager.auth, o.id, 'abandon')).statusCode).toBe(404);
    expect((await asInitiator(a, b.manager.auth, o.id, 'abandon')).statusCode).toBe(403);
    expect((await req('PUT', `/v1/workorder/work-orders/${o.id}/status/process`, a.manager.auth, {})).statusCode).toBe(403);
    expect((await req('GET', '/v1/workorder/work-orders', a.manager.auth)).statusCode).toBe(403);
    // a sub-user without the work-order grants
    const c = await makeTenant(t.app, t.database);
    expect((await req('GET', `${base(c)}/work-orders`, c.sub.auth)).statusCode).toBe(403);
    expect((await req('POST', `${base(c)}/work-orders`, c.sub.auth, {})).statusCode).toBe(403);
    // the tenant manager may act for its sub-user's order
    const sub = await create(a, a.sub.auth);
    expect((await asInitiator(a, a.manager.auth, sub.id, 'abandon')).json().status).toBe('abandon');
    // untouched order
    expect((await req('GET', `${base(a)}/work-orders/${o.id}`, a.manager.auth)).json().status).toBe('pending');
    // apply on an ordinary order
    await asHandler(o.id, 'process');
    const apply = await asHandler(o.id, 'done', { apply: true });
    expect(apply.json().code).toBe('workorder.not-capacity');
  });
});
