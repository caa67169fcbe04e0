import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { addressClass, createEgress, EgressRefused, parseEgressAllow, type Resolve } from '../src/lib/egress.ts';
import { openSender } from '../src/modules/forward/destinations.ts';
import { forwardOf } from '../src/modules/forward/forward.module.ts';
import { api, replay, rule, rulesUrl, trip } from './forward.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * The egress policy (docs/security.md, lib/egress.ts): every address a tenant configures is refused
 * when it is or resolves to loopback, link-local, private, shared, unique-local, unspecified,
 * multicast, broadcast or the server's own addresses, before any connection is made and again at
 * each connect; the operator's allow-list opens what a deployment needs. No test here sends traffic
 * off this machine: the addresses a connection could reach are loopback or the machine's own, and
 * every other class is checked without a socket.
 */

/** A literal of each refused class (the ranges of RFC 1122, 1918, 3927, 4193, 4291, 6598, 6890). */
const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:2', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['64:ff9b::a9fe:a9fe', 'link-local'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['2002:c0a8:101::', 'private'],
  ['100.64.0.1', 'shared'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
];
const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];

/** The machine's own non-loopback IPv4 addresses (a connection to one stays on this machine). */
const ownIPv4 = Object.values(os.networkInterfaces())
  .flat()
  .filter((a) => a && a.family === 'IPv4' && !a.internal)
  .map((a) => a?.address as string);

describe('egress policy: addresses', () => {
  it('classes every refused range, IPv4-mapped and embedding IPv6 forms included, and lets public addresses through', () => {
    for (const [ip, cls] of REFUSED) expect([ip, addressClass(ip, new Set())]).toEqual([ip, cls]);
    for (const ip of PUBLIC) expect([ip, addressClass(ip, new Set())]).toEqual([ip, null]);
  });

  it("refuses the server's own addresses", () => {
    const e = createEgress({ own: () => new Set([Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 8, 8, 4, 4]).toString('hex')]) });
    expect(() => e.checkLiteral('8.8.4.4')).toThrow(EgressRefused);
    expect(() => e.checkLiteral('::ffff:8.8.4.4')).toThrow(/server's own addresses/);
    expect(() => e.checkLiteral('8.8.8.8')).not.toThrow();
    for (const ip of ownIPv4) expect(() => createEgress().checkLiteral(ip)).toThrow(EgressRefused);
  });

  it('refuses a name when any address it resolves to is refused, literal URLs and host:port forms alike', async () => {
    const names: Record<string, string[]> = {
      'metadata.test': ['169.254.169.254'],
      'intranet.test': ['10.1.2.3'],
      'mixed.test': ['8.8.8.8', '192.168.0.10'],
      'v6.test': ['fd00::5'],
      'public.test': ['8.8.8.8', '2606:4700:4700::1111'],
    };
    const resolve: Resolve = async (h) => (names[h] ?? []).map((address) => ({ address, family: net.isIP(address) }));
    const e = createEgress({ resolve, own: () => new Set() });
    await expect(e.check('http://metadata.test/latest/meta-data')).rejects.toMatchObject({
      code: 'destination.address-refused',
      addressClass: 'link-local',
      address: '169.254.169.254',
    });
    await expect(e.check('intranet.test:9092')).rejects.toMatchObject({ addressClass: 'private' });
    await expect(e.check('redis://mixed.test:6379')).rejects.toMatchObject({ addressClass: 'private', address: '192.168.0.10' });
    await expect(e.check('nats://v6.test')).rejects.toMatchObject({ addressClass: 'unique-local' });
    await expect(e.check('http://[::1]:8080/')).rejects.toMatchObject({ addressClass: 'loopback' });
    // WHATWG URL parsing turns the short and hexadecimal IPv4 forms into the address they mean.
    await expect(e.check('http://0x7f.1/')).rejects.toMatchObject({ addressClass: 'loopback' });
    await expect(e.check('http://2130706433/')).rejects.toMatchObject({ addressClass: 'loopback' });
    await expect(e.check('http://[::ffff:10.0.0.1]/')).rejects.toMatchObject({ addressClass: 'private' });
    expect(await e.check('https://public.test/hook')).toEqual(['8.8.8.8', '2606:4700:4700::1111']);
  });

  it('allows what the operator lists: a host, a domain, a CIDR block, and nothing else', async () => {
    const names: Record<string, string[]> = { 'db.corp.test': ['10.0.0.7'], 'other.test': ['10.0.0.7'], 'mq.test': ['172.20.1.1'] };
    const resolve: Resolve = async (h) => (names[h] ?? []).map((address) => ({ address, family: 4 }));
    const e = createEgress({ resolve, own: () => new Set(), allow: parseEgressAllow('.corp.test, 172.20.0.0/16, 127.0.0.1, [fd00::1]') });
    expect(await e.check('postgres://u@db.corp.test/x')).toEqual(['10.0.0.7']);
    await expect(e.check('postgres://u@other.test/x')).rejects.toMatchObject({ addressClass: 'private' });
    expect(await e.check('mq.test:5672')).toEqual(['172.20.1.1']);
    expect(await e.check('http://127.0.0.1:1/')).toEqual(['127.0.0.1']);
    await expect(e.check('http://127.0.0.2:1/')).rejects.toMatchObject({ addressClass: 'loopback' });
    expect(await e.check('http://[fd00::1]/')).toEqual(['fd00::1']);
    await expect(e.check('http://[fd00::2]/')).rejects.toMatchObject({ addressClass: 'unique-local' });
  });

  it('checks again at each connect: the lookup refuses a name that now resolves to a refused address', async () => {
    let answer = '8.8.8.8';
    const e = createEgress({ resolve: async () => [{ address: answer, family: 4 }], own: () => new Set() });
    expect(await e.check('rebind.test')).toEqual(['8.8.8.8']);
    answer = '127.0.0.1';
    const looked = await new Promise<unknown>((resolve) => e.lookup('rebind.test', {}, (err) => resolve(err)));
    expect(looked).toBeInstanceOf(EgressRefused);
    expect((looked as EgressRefused).addressClass).toBe('loopback');
    const all = await new Promise<unknown>((resolve) => e.lookup('rebind.test', { all: true }, (err) => resolve(err)));
    expect(all).toBeInstanceOf(EgressRefused);
  });

  it('EGRESS_ALLOW: unset refuses loopback; a wrong entry stops the start naming the variable', () => {
    const none = createEgress({ allow: loadConfig({}).egressAllow, own: () => new Set() });
    expect(() => none.checkLiteral('127.0.0.1')).toThrow(EgressRefused);
    const listed = createEgress({ allow: loadConfig({ EGRESS_ALLOW: '127.0.0.1, 10.0.0.0/8' }).egressAllow, own: () => new Set() });
    expect(() => listed.checkLiteral('127.0.0.1')).not.toThrow();
    expect(() => listed.checkLiteral('10.200.0.1')).not.toThrow();
    expect(() => listed.checkLiteral('192.168.0.1')).toThrow(EgressRefused);
    expect(() => loadConfig({ EGRESS_ALLOW: '10.0.0.0/40' })).toThrow(ConfigError);
    expect(() => loadConfig({ EGRESS_ALLOW: 'http://x' })).toThrow(/EGRESS_ALLOW/);
  });
});

/** A listener on every local address (IPv4 and IPv6) that records the address each connection came to. */
async function listener() {
  const arrived: string[] = [];
  const server = net.createServer((s) => {
    arrived.push(s.localAddress ?? '');
    s.destroy();
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return { port: (server.address() as net.AddressInfo).port, arrived, close: () => new Promise((r) => server.close(r)) };
}

type Kind = 'http' | 'mqtt' | 'mqtt-ws' | 'amqp' | 'nats' | 'redis' | 'postgres' | 'kafka';
const KINDS: Kind[] = ['http', 'mqtt', 'mqtt-ws', 'amqp', 'nats', 'redis', 'postgres', 'kafka'];

/** A destination of the kind at host (a name, an IPv4 literal or a bracketed IPv6 literal) and port. */
function destination(kind: Kind, host: string, port: number): Record<string, unknown> {
  const hp = `${host}:${port}`;
  switch (kind) {
    case 'http':
      return { kind: 'http', url: `http://${hp}/hook`, timeout_ms: 2000 };
    case 'mqtt':
      return { kind: 'mqtt', url: `mqtt://${hp}`, topic: 't' };
    case 'mqtt-ws':
      return { kind: 'mqtt', url: `ws://${hp}/mqtt`, topic: 't' };
    case 'amqp':
      return { kind: 'amqp', url: `amqp://${hp}`, routing_key: 'q' };
    case 'nats':
      return { kind: 'nats', url: `nats://${hp}`, subject: 's' };
    case 'redis':
      return { kind: 'redis', url: `redis://${hp}`, stream: 's' };
    case 'postgres':
      return { kind: 'postgres', url: `postgres://postgres@${hp}/postgres`, table: 'fleet_data', timeout_ms: 2000 };
    case 'kafka':
      return { kind: 'kafka', brokers: [hp], topic: 't' };
  }
}

describe('egress policy: every destination kind', () => {
  let t: TestApp;
  let a: TenantFixture;
  let open: Awaited<ReturnType<typeof listener>>;
  /** Answers of the test's resolver: `localhost.test` is loopback; `rebind.test` answers the queue, then loopback. */
  const rebind: string[] = [];
  const resolve: Resolve = async (h) => {
    if (h === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
    if (h === 'localhost.test') return [{ address: '127.0.0.1', family: 4 }];
    if (h === 'six.test') return [{ address: '::1', family: 6 }];
    if (h === 'rebind.test') return [{ address: rebind.shift() ?? '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    open = await listener();
    // The default policy with one address opened (127.0.0.3: the rebinding name's first answer).
    t = await createTestApp({}, { egress: createEgress({ allow: parseEgressAllow('127.0.0.3'), resolve }) });
    a = await makeTenant(t);
  });
  afterAll(async () => {
    await open?.close();
    await t?.close();
  });

  const req = (...args: Parameters<ReturnType<typeof api>>) => api(t)(...args);

  const hosts = (kind: Kind) => [
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['localhost', 'loopback'],
    ['localhost.test', 'loopback'],
    ...(kind === 'kafka'
      ? []
      : [
          ['[::1]', 'loopback'],
          ['[::ffff:127.0.0.1]', 'loopback'],
          ['six.test', 'loopback'],
          ['[::]', 'unspecified'],
        ]),
    ...ownIPv4.map((ip) => [ip, null]),
  ];

  it.each(KINDS)(
    '%s: literal and resolved local addresses are refused by test-destination and on save, before any connection',
    async (kind) => {
      for (const [host, cls] of hosts(kind)) {
        const d = destination(kind, host as string, open.port);
        const tested = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: d });
        expect([host, tested.statusCode]).toEqual([host, 400]);
        expect(tested.json()).toMatchObject({ code: 'destination.address-refused' });
        if (cls) expect([host, tested.json().details.address_class]).toEqual([host, cls]);
        else expect(tested.json().details.address_class).toMatch(/^(own|private|shared|link-local|reserved)$/);
        const saved = await req('POST', rulesUrl(a), a.auth, { name: `r-${kind}`, data_kinds: ['frames'], destination: d });
        expect([host, saved.statusCode, saved.json().code]).toEqual([host, 400, 'destination.address-refused']);
        await expect(openSender(d as never, t.app.ctx.egress)).rejects.toBeInstanceOf(EgressRefused);
      }
      expect(open.arrived).toEqual([]);
    },
  );

  it.each(KINDS.filter((k) => k !== 'nats'))(
    '%s: a name that resolves to an allowed address at the check and to loopback at the connect is refused at the connect',
    async (kind) => {
      rebind.push('127.0.0.3');
      let err: unknown = null;
      try {
        const s = await openSender(destination(kind, 'rebind.test', open.port) as never, t.app.ctx.egress);
        // Webhooks connect at the first send.
        try {
          await s.send([
            { id: 'x', rule_id: '', tenant_id: a.tenantId, things_id: null, third_things_id: null, kind: 'test', ts: 1, data: {} },
          ]);
        } finally {
          await s.close();
        }
      } catch (e) {
        err = e;
      }
      expect(String((err as Error)?.message ?? err)).toMatch(/refused by the egress policy/);
      expect(open.arrived).toEqual([]);
    },
  );

  it('a saved rule whose name later resolves to loopback fails its deliveries, and nothing arrives', async () => {
    const device = await makeDevice(t, a);
    rebind.push('127.0.0.3'); // the answer when the rule is saved
    const created = await req('POST', rulesUrl(a), a.auth, {
      name: 'rebound',
      data_kinds: ['frames'],
      destination: destination('http', 'rebind.test', open.port),
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as string;
    try {
      forwardOf(t.app).tune({ baseDelayMs: 60_000, maxAttempts: 100 });
      await replay(t, device, trip(20, 1_760_000_000_000_000));
      const failing = await poll(
        () => rule(t, a, id),
        (x) => x.counters.failed > 0,
        { ms: 20_000 },
      );
      expect(failing.counters.last_error).toMatch(/^rebind\.test resolves to a loopback address: refused by the egress policy/);
      expect(failing.counters).toMatchObject({ delivered: 0 });
      expect(open.arrived).toEqual([]);
    } finally {
      await req('DELETE', rulesUrl(a, `/${id}`), a.auth);
    }
  });

  it('nats: the client connects to the address the policy checked, never to a later answer of the name', async () => {
    rebind.push('127.0.0.3');
    await openSender(destination('nats', 'rebind.test', open.port) as never, t.app.ctx.egress).catch(() => null);
    expect(open.arrived.map((x) => x.replace(/^::ffff:/, ''))).toEqual(['127.0.0.3']);
    open.arrived.length = 0;
  });

  it('a listed address is reached: with 127.0.0.1 allowed every kind connects to it', async () => {
    const allowed = createEgress({ allow: parseEgressAllow('127.0.0.1'), resolve });
    for (const kind of KINDS) {
      open.arrived.length = 0;
      const s = await openSender(destination(kind, '127.0.0.1', open.port) as never, allowed).catch(() => null);
      await s
        ?.send([{ id: 'x', rule_id: '', tenant_id: a.tenantId, things_id: null, third_things_id: null, kind: 'test', ts: 1, data: {} }])
        .catch(() => null);
      await s?.close();
      expect([kind, open.arrived.length > 0]).toEqual([kind, true]);
    }
    open.arrived.length = 0;
  });
});

describe('egress policy: stored secrets stay with the stored address', () => {
  let t: TestApp;
  let a: TenantFixture;
  const got: { port: number; signature?: string; token?: string; url?: string }[] = [];
  const servers: http.Server[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({ egressAllow: parseEgressAllow('127.0.0.1') });
    a = await makeTenant(t);
    for (let i = 0; i < 2; i++) {
      const s = http.createServer((q, r) => {
        got.push({
          port: (s.address() as net.AddressInfo).port,
          signature: q.headers['x-loggerhead-signature'] as string | undefined,
          token: q.headers['x-token'] as string | undefined,
          url: q.url,
        });
        q.resume();
        q.on('end', () => r.writeHead(204).end());
      });
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      servers.push(s);
      ports.push((s.address() as net.AddressInfo).port);
    }
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await t?.close();
  });

  const req = (...args: Parameters<ReturnType<typeof api>>) => api(t)(...args);

  it('a test or an update that moves a destination with masked credentials is refused, and nothing reaches the new address', async () => {
    const created = await req('POST', rulesUrl(a), a.auth, {
      name: 'moving',
      data_kinds: ['frames'],
      destination: {
        kind: 'http',
        url: `http://127.0.0.1:${ports[0]}/hook?access_token=stored-token-Qz81`,
        secret: 'stored-secret-Ha72',
        headers: { 'x-token': 'stored-header-Mm03' },
      },
    });
    expect(created.statusCode).toBe(200);
    const rule = created.json();
    const masked = rule.destination;
    expect(masked.secret).toBe('******');

    // The same address: the stored credentials are used.
    got.length = 0;
    expect((await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: masked, rule_id: rule.id })).json()).toMatchObject({
      ok: true,
    });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ port: ports[0], token: 'stored-header-Mm03', url: '/hook?access_token=stored-token-Qz81' });

    // Another port, another scheme-host-port: refused with masks, whatever is masked.
    got.length = 0;
    const moved = masked.url.replace(`:${ports[0]}/`, `:${ports[1]}/`);
    for (const destination of [
      { ...masked, url: moved },
      { ...masked, url: moved.replace(/\?.*$/, ''), headers: {} },
      { ...masked, url: moved.replace(/\?.*$/, ''), secret: undefined, headers: { 'x-token': '******' } },
    ]) {
      const tested = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination, rule_id: rule.id });
      expect(tested.statusCode).toBe(400);
      expect(tested.json()).toMatchObject({ code: 'destination.secret-address-changed' });
      const updated = await req('PUT', rulesUrl(a, `/${rule.id}`), a.auth, { name: 'moving', data_kinds: ['frames'], destination });
      expect(updated.json()).toMatchObject({ code: 'destination.secret-address-changed' });
    }
    expect(got).toEqual([]);

    // Credentials given again go to the new address; the stored ones never do.
    const fresh = { kind: 'http', url: `http://127.0.0.1:${ports[1]}/hook`, secret: 'new-secret', headers: { 'x-token': 'new-header' } };
    expect((await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: fresh, rule_id: rule.id })).json()).toMatchObject({
      ok: true,
    });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ port: ports[1], token: 'new-header', url: '/hook' });
    const stored = (await t.database.raw.query<{ d: string }>('select destination::text as d from forward_rules where id = $1', [rule.id]))
      .rows[0].d;
    expect(JSON.parse(stored).url).not.toContain(String(ports[1]));
  });

  it('a webhook that answers with a redirect is not followed: the round fails, and the redirect target gets nothing', async () => {
    const redirecting = http.createServer((q, r) => {
      q.resume();
      q.on('end', () => r.writeHead(307, { location: `http://127.0.0.1:${ports[1]}/elsewhere` }).end());
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      got.length = 0;
      const url = `http://127.0.0.1:${(redirecting.address() as net.AddressInfo).port}/hook`;
      const tested = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: { kind: 'http', url, secret: 's' } });
      expect(tested.json()).toMatchObject({ ok: false, error: 'HTTP 307 (redirects are not followed)' });
      expect(got).toEqual([]);
    } finally {
      await new Promise((r) => redirecting.close(r));
    }
  });
});
