import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrdersService } from '../src/modules/billing/billing.module.ts';
import { addMonths } from '../src/modules/billing/orders.service.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeTenant, type TestTenant } from './message.fixtures.ts';
import { makeDevice } from './things.fixtures.ts';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const DAY = 24 * 3600 * 1000;

function multipart(name: string, bytes: Buffer) {
  const boundary = '----loggerheadtest';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('billing orders', () => {
  let t: TestApp;
  let admin: string;
  let a: TestTenant;
  let b: TestTenant;
  let fleet: string;
  let small: string;
  const req = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url: `/v1${url}`, headers: { authorization: auth }, payload });
  const orders = (tenant: TestTenant) => `/billing/tenants/${tenant.id}/orders`;
  const pkg = async (tenant: TestTenant) => (await req('GET', `/tenant/tenants/${tenant.id}/specification`, tenant.manager.auth)).json();
  const upload = (tenant: TestTenant, id: string, name: string, bytes: Buffer, auth = tenant.manager.auth) =>
    t.app.inject({
      method: 'POST',
      url: `/v1${orders(tenant)}/${id}/receipt`,
      ...((m) => ({ payload: m.payload, headers: { ...m.headers, authorization: auth } }))(multipart(name, bytes)),
    });
  const device = (tenant: TestTenant) =>
    makeDevice(t, { tenantId: tenant.id, managerId: tenant.manager.id, name: tenant.name, auth: tenant.manager.auth });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAdmin(t.app);
    a = await makeTenant(t.app, t.database, ['billing:order:query']);
    b = await makeTenant(t.app, t.database);
    const made = await req('POST', '/billing/packages', admin, {
      name: 'Fleet',
      platform: 1,
      contents: { things_num: 5, database_storage_space: 10 },
      month_price: 10_000,
    });
    expect(made.statusCode, made.body).toBe(201);
    fleet = made.json().id;
    small = (await req('POST', '/billing/packages', admin, { name: 'Small', contents: { things_num: 3 }, month_price: 3_000 })).json().id;
    expect((await req('POST', '/billing/stage-discounts', admin, { min_months: 12, percent: 80 })).statusCode).toBe(201);
    expect((await req('PUT', '/billing/content-items', admin, { field: 'things_num', name: 'Device', unit_price: 500 })).statusCode).toBe(
      200,
    );
    const coupon = await req('POST', '/billing/coupons', admin, { code: 'WELCOME10', amount_off: 1_000, min_amount: 5_000, max_uses: 1 });
    expect(coupon.statusCode, coupon.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the catalogue to system managers; every signed-in user reads what is on sale', async () => {
    expect(
      (await req('POST', '/billing/packages', a.manager.auth, { name: 'X', contents: { things_num: 1 }, month_price: 1 })).statusCode,
    ).toBe(403);
    expect((await req('GET', '/billing/coupons', a.manager.auth)).statusCode).toBe(403);
    const dup = await req('POST', '/billing/packages', admin, { name: 'Fleet', contents: { things_num: 1 }, month_price: 1 });
    expect(dup.json().code).toBe('billing.duplicate');
    const bad = await req('POST', '/billing/packages', admin, { name: 'Y', contents: { no_such_field: 1 }, month_price: 1 });
    expect(bad.statusCode).toBe(400);
    const list = (await req('GET', '/billing/packages', a.sub.auth)).json();
    expect(list.map((p: { name: string }) => p.name).sort()).toEqual(['Fleet', 'Small']);
    expect(list.find((p: { name: string }) => p.name === 'Fleet')).toMatchObject({ platform: 1, contents: { things_num: 5 } });
  });

  it('prices an order with the stage discount and a coupon, and checks its input', async () => {
    const q = await req('POST', `${orders(a)}/quote`, a.manager.auth, {
      type: 1,
      package_id: fleet,
      duration: 12,
      coupon_code: 'welcome10',
    });
    expect(q.statusCode, q.body).toBe(200);
    // 12 × 100.00 = 1200.00; 80 % from 12 months: 960.00; the coupon takes 10.00
    expect(q.json()).toMatchObject({
      list_amount: 120_000,
      discount_amount: 24_000,
      coupon_amount: 1_000,
      pay_amount: 95_000,
      discount_percent: 80,
    });
    const noDiscount = (await req('POST', `${orders(a)}/quote`, a.manager.auth, { type: 1, package_id: fleet, duration: 11 })).json();
    expect(noDiscount).toMatchObject({ list_amount: 110_000, discount_amount: 0, pay_amount: 110_000 });
    // the capacity form: 2 → 4 devices, 2 units at 5.00 for 3 months
    const cap = (await req('POST', `${orders(a)}/quote`, a.manager.auth, { type: 2, content: { things_num: 4 }, duration: 3 })).json();
    expect(cap).toMatchObject({ to_package_content: { things_num: 4 }, list_amount: 3_000, pay_amount: 3_000 });

    const codes = async (body: object) => {
      const r = await req('POST', `${orders(a)}/quote`, a.manager.auth, body);
      return [r.statusCode, [r.json()].flat()[0].code];
    };
    expect(await codes({ type: 1, package_id: fleet, duration: 1, coupon_code: 'NOPE' })).toEqual([400, 'coupon.invalid']);
    // below the coupon's minimum order
    expect(await codes({ type: 1, package_id: small, duration: 1, coupon_code: 'WELCOME10' })).toEqual([400, 'coupon.invalid']);
    expect(await codes({ type: 1, duration: 1 })).toEqual([400, 'order.bad-input']);
    expect(await codes({ type: 2, content: { things_num: 4 }, package_id: fleet, duration: 1 })).toEqual([400, 'order.bad-input']);
    expect(await codes({ type: 1, package_id: fleet, duration: 0 })).toEqual([400, 'http.400']);
    expect(await codes({ type: 1, package_id: fleet, duration: 37 })).toEqual([400, 'http.400']);
    expect(await codes({ type: 2, content: { things_num: 1 }, duration: 1 })).toEqual([400, 'capacity.below-current']);
    expect(await codes({ type: 2, content: { things_num: 2 }, duration: 1 })).toEqual([400, 'capacity.unchanged']);
    expect(await codes({ type: 2, content: { database_storage_space: 9 }, duration: 1 })).toEqual([400, 'order.not-for-sale']);
    expect(await codes({ type: 2, content: { things_num: 100_001 }, duration: 1 })).toEqual([400, 'http.400']);
    expect(await codes({ type: 1, package_id: fleet, duration: 1, pay_type: 'cash' })).toEqual([400, 'http.400']);
    // nothing was written by a refused order
    expect((await req('GET', orders(a), a.manager.auth)).json().total).toBe(0);
  });

  it('raises the tenant’s device quota once an order paid by receipt is confirmed', async () => {
    await device(a);
    await device(a);
    await expect(device(a)).rejects.toThrow(/quota.limit-reached/);

    const made = await req('POST', orders(a), a.manager.auth, { type: 1, package_id: fleet, duration: 12, coupon_code: 'WELCOME10' });
    expect(made.statusCode, made.body).toBe(201);
    const order = made.json();
    expect(order).toMatchObject({
      state: 'unpaid',
      pay_amount: 95_000,
      to_package_id: fleet,
      to_package_name: 'Fleet',
      has_receipt: false,
    });
    expect(order.order_no).toMatch(/^LH\d{20}$/);
    // the coupon had one use: it is taken
    const again = await req('POST', `${orders(a)}/quote`, a.manager.auth, {
      type: 1,
      package_id: fleet,
      duration: 12,
      coupon_code: 'WELCOME10',
    });
    expect(again.json().code).toBe('coupon.invalid');

    const paying = await req('POST', `${orders(a)}/${order.id}/pay`, a.manager.auth);
    expect(paying.statusCode, paying.body).toBe(200);
    expect(paying.json()).toMatchObject({
      order: { state: 'paying' },
      instructions: { pay_type: 'bank-transfer', amount: 95_000, reference: order.order_no, receipt: true },
    });
    // nothing applies before the money is confirmed
    expect((await req('POST', `/billing/orders/${order.id}/confirm`, a.manager.auth, { trade_no: 'X' })).statusCode).toBe(403);
    expect((await upload(a, order.id, 'receipt.txt', Buffer.from('I paid, honest'))).json().code).toBe('order.receipt-invalid');
    const up = await upload(a, order.id, 'receipt.png', PNG);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ state: 'confirming', has_receipt: true });
    expect((await pkg(a)).things_num).toBe(2);

    // the system manager sees it waiting, reads the receipt and confirms it
    const waiting = (await req('GET', '/billing/orders?state=confirming', admin)).json();
    expect(waiting.list.map((o: { id: string }) => o.id)).toContain(order.id);
    expect(waiting.list.find((o: { id: string }) => o.id === order.id).tenant_name).toBe(a.name);
    const receipt = await req('GET', `/billing/orders/${order.id}/receipt`, admin);
    expect(receipt.headers['content-type']).toBe('image/png');
    expect(receipt.rawPayload.equals(PNG)).toBe(true);
    const before = Date.now();
    const paid = await req('POST', `/billing/orders/${order.id}/confirm`, admin, { trade_no: 'BANK-20261126-001' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ state: 'active', trade_no: 'BANK-20261126-001' });
    expect(paid.json().start_time).toBeGreaterThanOrEqual(before - 1000);
    expect(paid.json().end_time).toBe(addMonths(new Date(paid.json().start_time), 12).getTime());
    expect(await pkg(a)).toMatchObject({ things_num: 5, database_storage_space: 10, platform: 1 });
    await device(a);
    await device(a);
    await device(a);
    await expect(device(a)).rejects.toThrow(/quota.limit-reached/);
    // a paid order can no longer be cancelled, paid again or confirmed twice
    expect((await req('POST', `${orders(a)}/${order.id}/cancel`, a.manager.auth)).json().code).toBe('order.bad-state');
    expect((await req('POST', `/billing/orders/${order.id}/confirm`, admin, { trade_no: 'again' })).json().code).toBe('order.bad-state');
  });

  it('is the tenant manager’s, within its own tenant', async () => {
    const mine = (await req('GET', orders(a), a.manager.auth)).json().list[0];
    // a sub-user, even granted the key, is no manager
    expect((await req('GET', orders(a), a.sub.auth)).statusCode).toBe(403);
    expect((await req('POST', orders(a), a.sub.auth, { type: 1, package_id: small, duration: 1 })).statusCode).toBe(403);
    // another tenant's manager sees neither the list nor the order nor its receipt
    expect((await req('GET', orders(a), b.manager.auth)).statusCode).toBe(403);
    expect((await req('GET', `${orders(b)}/${mine.id}`, b.manager.auth)).json().code).toBe('order.not-found');
    expect((await req('GET', `${orders(b)}/${mine.id}/receipt`, b.manager.auth)).json().code).toBe('order.not-found');
    expect((await req('POST', `${orders(b)}/${mine.id}/cancel`, b.manager.auth)).json().code).toBe('order.not-found');
    expect((await req('GET', orders(b), b.manager.auth)).json().total).toBe(0);
    expect((await req('GET', '/billing/orders', a.manager.auth)).statusCode).toBe(403);
  });

  it('cancels an unpaid order and gives its coupon back; a rejected receipt waits for another', async () => {
    const c = await req('POST', '/billing/coupons', admin, { code: 'ONCEONLY', amount_off: 500, max_uses: 1 });
    const o1 = (await req('POST', orders(b), b.manager.auth, { type: 1, package_id: small, duration: 1, coupon_code: 'ONCEONLY' })).json();
    expect(o1.pay_amount).toBe(2_500);
    const cancelled = await req('POST', `${orders(b)}/${o1.id}/cancel`, b.manager.auth);
    expect(cancelled.json().state).toBe('cancelled');
    expect((await req('GET', '/billing/coupons', admin)).json().find((x: { id: string }) => x.id === c.json().id).used).toBe(0);
    const o2 = (await req('POST', orders(b), b.manager.auth, { type: 1, package_id: small, duration: 1, coupon_code: 'ONCEONLY' })).json();
    await req('POST', `${orders(b)}/${o2.id}/pay`, b.manager.auth);
    await upload(b, o2.id, 'scan.pdf', PDF);
    const rejected = await req('POST', `/billing/orders/${o2.id}/reject`, admin, { remark: 'No such transfer' });
    expect(rejected.json()).toMatchObject({ state: 'paying', remark: 'No such transfer' });
    expect((await pkg(b)).things_num).toBe(2);
    expect((await upload(b, o2.id, 'scan.pdf', PDF)).json().state).toBe('confirming');
    const r = await req('GET', `${orders(b)}/${o2.id}/receipt`, b.manager.auth);
    expect(r.headers['content-type']).toBe('application/pdf');
  });

  it('starts a renewal when the running package ends, and falls back to the package from before when it ends too', async () => {
    const start = Date.now();
    let clock = start;
    const svc = buildOrdersService(t.app.ctx, () => clock);
    const pay = async (body: object) => {
      const o = (await req('POST', orders(b), b.manager.auth, body)).json();
      return svc.confirm(null, o.id, { trade_no: `T${o.order_no}`, remark: '' });
    };
    const first = await pay({ type: 1, package_id: small, duration: 1 });
    expect(first.state).toBe('active');
    expect((await pkg(b)).things_num).toBe(3);
    const renewal = await pay({ type: 1, pattern: 2, package_id: fleet, duration: 1 });
    expect(renewal).toMatchObject({ state: 'paid', start_time: first.end_time });
    // more devices for the running month, bought from the capacity form
    const capacity = await pay({ type: 2, content: { things_num: 4 }, duration: 1 });
    expect(capacity.state).toBe('active');
    expect((await pkg(b)).things_num).toBe(4);

    // a month later the small package and the capacity order end, and the renewal starts
    clock = (first.end_time as number) + 1000;
    await svc.settle(new Date(clock));
    expect(await pkg(b)).toMatchObject({ things_num: 5, database_storage_space: 10 });
    const states = (await req('GET', orders(b), b.manager.auth)).json().list.map((o: { id: string; state: string }) => [o.id, o.state]);
    expect(Object.fromEntries(states)).toMatchObject({ [first.id]: 'expired', [renewal.id]: 'active' });

    // when the renewal ends too, the package is what it was before any order: the defaults
    clock = (renewal.end_time as number) + 40 * DAY;
    await svc.settle(new Date(clock));
    expect(await pkg(b)).toMatchObject({ things_num: 2, database_storage_space: 2, platform: 0 });
  });

  it('refunds a running order: its package falls back at once, and a value the system manager changed meanwhile stays', async () => {
    const c = await makeTenant(t.app, t.database);
    const o = (await req('POST', orders(c), c.manager.auth, { type: 1, package_id: fleet, duration: 1 })).json();
    await req('POST', `${orders(c)}/${o.id}/pay`, c.manager.auth);
    await upload(c, o.id, 'r.png', PNG);
    await req('POST', `/billing/orders/${o.id}/confirm`, admin, { trade_no: 'B-1' });
    expect(await pkg(c)).toMatchObject({ things_num: 5, database_storage_space: 10 });
    await req('PUT', `/tenant/tenants/${c.id}/specification`, admin, { database_storage_space: 20 });
    const refunded = await req('POST', `/billing/orders/${o.id}/refund`, admin, { remark: 'Customer asked' });
    expect(refunded.json()).toMatchObject({ state: 'refunded', remark: 'Customer asked' });
    expect(await pkg(c)).toMatchObject({ things_num: 2, database_storage_space: 20, platform: 0 });
    expect((await req('POST', `/billing/orders/${o.id}/refund`, admin, {})).json().code).toBe('order.bad-state');
  });
});
