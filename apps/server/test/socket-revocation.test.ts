import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SocketClose } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { buildApp, type LoggerheadApp } from '../src/app.ts';
import { socketRegistry } from '../src/live/socket-registry.ts';
import { createTestApp, loginAdmin, openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { externalBroker } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, PASSWORD, type TenantFixture } from './things.fixtures.ts';

/**
 * A console WebSocket lives only as long as the right to read it: every socket (live trace and
 * signals, message bell, remote operations) closes with 4401 or 4403, after an error message, when
 * its session ends or expires, when its user's rights or devices change, or when its tenant is
 * disabled; a deleted device leaves the sockets that read it. Real sockets on a listening app.
 */
let t: TestApp;
let port: number;
let admin: string;
/** The registry's periodic re-read, run only where a test asks for it. */
let revalidate: () => Promise<void>;

/** The periodic re-read of sessions would end every socket within a minute anyway: it is held off, so each close comes from its cause. */
function holdOffPeriodicCheck(app: LoggerheadApp): () => Promise<void> {
  const registry = socketRegistry(app);
  const real = registry.revalidate.bind(registry);
  vi.spyOn(registry, 'revalidate').mockResolvedValue(undefined);
  return real;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  admin = await loginAdmin(t.app);
  revalidate = holdOffPeriodicCheck(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Msg = { t: string; id?: string; code?: string; message?: string; things_id?: string; unread?: number };

/** A real socket that collects what it receives and how it closed. */
async function open(path: string, token: string, onPort = port) {
  const ws = new WebSocket(`ws://127.0.0.1:${onPort}${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`);
  const got: Msg[] = [];
  let closed: { code: number; after: number } | null = null;
  ws.on('message', (raw) => {
    got.push(JSON.parse(String(raw)));
  });
  ws.on('close', (code) => {
    closed = { code, after: got.length };
  });
  /** Waits for `probe` to find something; on time-out the message shows all the socket got and how it closed. */
  const wait = async <T>(probe: () => T | undefined | null | false, what: string, ms = 10_000): Promise<T> => {
    const seen = await poll(
      () => ({ found: probe(), got, closed }),
      (s) => Boolean(s.found),
      { ms, every: 20, what: `${path}: ${what}` },
    );
    return seen.found as T;
  };
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    got,
    closed: () => closed as { code: number; after: number } | null,
    next: (pred: (m: Msg) => boolean, what: string, from = 0) => wait(() => got.slice(from).find(pred), what),
    closing: () => wait(() => closed, 'close'),
  };
}
type Sock = Awaited<ReturnType<typeof open>>;

/** Logs in through the API: the token and the session id. */
async function session(username: string, password: string): Promise<{ token: string; sessionId: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username, password, type: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token, sessionId: res.json().session_id };
}

interface Scene {
  tenant: TenantFixture;
  thingsId: string;
  sub: { userId: string; username: string };
  /** The sub-user's session the sockets are opened with. */
  s: { token: string; sessionId: string };
}

/** A tenant with a device and a sub-user that may read it, logged in afresh. */
async function scene(): Promise<Scene> {
  const tenant = await makeTenant(t);
  const dev = await makeDevice(t, tenant);
  const sub = await makeSubUser(t, tenant, ['data-mgmt:things-data:query', 'things:message:query'], [{ thingsId: dev.id, access: 'read' }]);
  const { rows } = await t.database.raw.query<{ username: string }>('select username from users where id = $1', [sub.userId]);
  const username = rows[0].username;
  return { tenant, thingsId: dev.id, sub: { userId: sub.userId, username }, s: await session(`${username}@${tenant.name}`, PASSWORD) };
}

/** One kind of console socket: how to open it ready, and a push it receives while it may read. */
interface SocketKind {
  name: string;
  open(sc: Scene, token: string): Promise<Sock>;
  /** Makes the server push something to this socket; `seen` tells whether a message is that push. */
  poke(sc: Scene): Promise<void> | void;
  seen(m: Msg): boolean;
  /** Whether the server still holds this socket's subscription (frames, pushes) for the scene. */
  held(sc: Scene): boolean;
}

const kinds: SocketKind[] = [
  {
    name: 'live trace and signals',
    async open(sc, token) {
      const s = await open('/v1/live', token);
      s.ws.send(JSON.stringify({ op: 'subscribe', id: 'f', kind: 'frames', things_id: sc.thingsId }));
      s.ws.send(JSON.stringify({ op: 'subscribe', id: 's', kind: 'signals', things_id: sc.thingsId }));
      await s.next((m) => m.t === 'subscribed' && m.id === 'f', 'frames subscribed');
      await s.next((m) => m.t === 'subscribed' && m.id === 's', 'signals subscribed');
      return s;
    },
    poke: (sc) => t.app.ctx.ingest.live.publishStatus(sc.thingsId, true),
    seen: (m) => m.t === 'status',
    held: (sc) => t.app.ctx.ingest.live.watching(sc.thingsId) || t.app.ctx.ingest.live.watchingSignals(sc.thingsId),
  },
  {
    name: 'message bell',
    async open(_sc, token) {
      const s = await open('/v1/live', token);
      s.ws.send(JSON.stringify({ op: 'subscribe', id: 'bell', kind: 'messages' }));
      await s.next((m) => m.t === 'subscribed' && m.id === 'bell', 'subscribed');
      return s;
    },
    poke: async (sc) => {
      await t.app.ctx.messages.send(sc.tenant.tenantId, sc.sub.userId, { title: 'Hello', content: 'x', type: 'system', reminderMode: 1 });
    },
    seen: (m) => m.t === 'unread',
    held: (sc) => socketRegistry(t.app).count(sc.sub.userId) > 0,
  },
  {
    name: 'remote operations',
    async open(sc, token) {
      const s = await open('/v1/live', token);
      s.ws.send(JSON.stringify({ op: 'subscribe', id: 'r', kind: 'remote', tenant_id: sc.tenant.tenantId, things_id: sc.thingsId }));
      await s.next((m) => m.t === 'subscribed' && m.id === 'r', 'subscribed');
      return s;
    },
    poke: (sc) => t.app.ctx.events.emit('command.updated', { tenantId: sc.tenant.tenantId, thingsId: sc.thingsId, command: {} as never }),
    seen: (m) => m.t === 'command',
    held: (sc) => socketRegistry(t.app).count(sc.sub.userId) > 0,
  },
];

const manage = (sc: Scene, method: 'PUT' | 'POST' | 'DELETE', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/v1/tenant/tenants/${sc.tenant.tenantId}/users/${sc.sub.userId}${path}`,
    headers: { authorization: sc.tenant.auth },
    ...(payload ? { payload } : {}),
  });

interface Cause {
  name: string;
  /** Close code and the code of the error message sent before it. */
  close: number;
  error: string;
  /** The error message's text, when it tells this cause apart. */
  message?: string;
  cause: (sc: Scene) => Promise<void>;
  /** The tenant's manager loses its sockets too. */
  managerToo?: boolean;
  /** Sets the scene up before the sockets open (a new session when the set-up ended the old one). */
  prepare?: (sc: Scene) => Promise<Scene>;
}

const ok = (res: { statusCode: number; body: string }, status: number) => expect(res.statusCode, res.body).toBe(status);

/** The scene's manager calls a tenant route. */
const call = (sc: Scene, method: 'PUT' | 'POST' | 'DELETE', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/v1${path.replace(':tenant', sc.tenant.tenantId)}`,
    headers: { authorization: sc.tenant.auth },
    ...(payload ? { payload } : {}),
  });

/** Ids of what the scene's project holds the device through. */
const held = new Map<Scene, { groupId?: string; vehicleId?: string }>();

/**
 * The sub-user becomes the member of a project that holds the scene's device only through a group
 * or a vehicle (joining ends its sessions, so it signs in again).
 */
const inProjectThrough =
  (via: 'group' | 'vehicle') =>
  async (sc: Scene): Promise<Scene> => {
    const ids: { groupId?: string; vehicleId?: string } = {};
    if (via === 'group') {
      const g = await call(sc, 'POST', '/out-group-mgmt/tenants/:tenant/groups', { name: 'Watched' });
      ok(g, 200);
      ids.groupId = g.json().id;
      ok(await call(sc, 'POST', `/out-group-mgmt/tenants/:tenant/groups/${ids.groupId}/bind`, { things_ids: [sc.thingsId] }), 200);
    } else {
      const v = await call(sc, 'POST', '/things/tenants/:tenant/vehicles', {
        name: 'Watched',
        channels: [{ name: 'Powertrain', things_id: sc.thingsId, channel: 0 }],
      });
      ok(v, 200);
      ids.vehicleId = v.json().id;
    }
    const p = await call(sc, 'POST', '/project/tenants/:tenant/projects', { name: 'Watched' });
    ok(p, 200);
    const bound = await call(sc, 'POST', `/project/tenants/:tenant/projects/${p.json().id}/bind`, {
      ...(ids.groupId ? { group_ids: [ids.groupId] } : { vehicle_ids: [ids.vehicleId] }),
      users: [{ user_id: sc.sub.userId, access: 'read' }],
    });
    ok(bound, 200);
    const next = { ...sc, s: await session(`${sc.sub.username}@${sc.tenant.name}`, PASSWORD) };
    held.set(next, ids);
    return next;
  };
const heldBy = (sc: Scene) => held.get(sc) ?? {};

const causes: Cause[] = [
  {
    name: 'logout',
    close: SocketClose.sessionEnded,
    error: 'auth.session-expired',
    cause: async (sc) =>
      ok(
        await t.app.inject({
          method: 'DELETE',
          url: `/v1/control/sessions/${sc.s.sessionId}`,
          headers: { authorization: `Bearer ${sc.s.token}` },
        }),
        204,
      ),
  },
  {
    name: 'session expiry',
    close: SocketClose.sessionEnded,
    error: 'auth.session-expired',
    message: 'The session has expired, please log in again',
    // The session is shortened to end two seconds from now; the periodic check re-reads it, then
    // nothing else happens: the sockets close when it expires.
    cause: async (sc) => {
      await t.database.raw.query(`update sessions set expires_at = now() + interval '2 seconds' where id = $1`, [sc.s.sessionId]);
      await revalidate();
      expect(socketRegistry(t.app).count(sc.sub.userId)).toBe(3);
    },
  },
  {
    name: 'session revoked elsewhere (found by the periodic check)',
    close: SocketClose.sessionEnded,
    error: 'auth.session-expired',
    message: 'The session has ended, please log in again',
    cause: async (sc) => {
      // Straight in the database, as a copy whose event never arrived would leave it.
      await t.database.raw.query('update sessions set revoked_at = now() where id = $1', [sc.s.sessionId]);
      await revalidate();
    },
  },
  {
    name: 'password reset by the manager',
    close: SocketClose.sessionEnded,
    error: 'auth.session-expired',
    cause: async (sc) => ok(await manage(sc, 'POST', '/reset-password', { password: 'Other-Pass-456' }), 204),
  },
  {
    name: 'sub-user permissions changed',
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    cause: async (sc) => ok(await manage(sc, 'PUT', '', { grants: ['things:message:query'] }), 200),
  },
  {
    name: 'sub-user menus changed',
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    cause: async (sc) => ok(await manage(sc, 'PUT', '', { menus: [] }), 200),
  },
  {
    name: 'sub-user devices changed',
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    cause: async (sc) => ok(await manage(sc, 'PUT', '', { devices: [] }), 200),
  },
  {
    name: 'sub-user disabled',
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    cause: async (sc) => ok(await manage(sc, 'PUT', '', { status: 3 }), 200),
  },
  {
    name: 'sub-user deleted',
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    cause: async (sc) => ok(await manage(sc, 'DELETE', ''), 204),
  },
  // A project narrows through what it holds too (decision 0165): at once, not at the periodic check.
  {
    name: "a project's group loses the device",
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    prepare: inProjectThrough('group'),
    cause: async (sc) =>
      ok(await call(sc, 'POST', `/out-group-mgmt/tenants/:tenant/groups/${heldBy(sc).groupId}/unbind`, { things_ids: [sc.thingsId] }), 200),
  },
  {
    name: "a project's group is deleted",
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    prepare: inProjectThrough('group'),
    cause: async (sc) => ok(await call(sc, 'DELETE', `/out-group-mgmt/tenants/:tenant/groups/${heldBy(sc).groupId}`), 200),
  },
  {
    name: "a project's vehicle loses the device",
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    prepare: inProjectThrough('vehicle'),
    cause: async (sc) => ok(await call(sc, 'PUT', `/things/tenants/:tenant/vehicles/${heldBy(sc).vehicleId}`, { channels: [] }), 200),
  },
  {
    name: "a project's vehicle is deleted",
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    prepare: inProjectThrough('vehicle'),
    cause: async (sc) => ok(await call(sc, 'DELETE', `/things/tenants/:tenant/vehicles/${heldBy(sc).vehicleId}`), 204),
  },
  {
    name: 'tenant disabled',
    close: SocketClose.accessWithdrawn,
    error: 'auth.access-withdrawn',
    managerToo: true,
    cause: async (sc) =>
      ok(
        await t.app.inject({
          method: 'PUT',
          url: `/v1/tenant/tenants/${sc.tenant.tenantId}`,
          headers: { authorization: admin },
          payload: { status: 3 },
        }),
        200,
      ),
  },
];

describe('every console socket closes when the right to read it ends', () => {
  it.each(causes)('$name', async (c) => {
    const sc = c.prepare ? await c.prepare(await scene()) : await scene();
    const sockets = await Promise.all(kinds.map((k) => k.open(sc, sc.s.token)));
    // A bystander: the manager's bell, on the manager's own session.
    const bystander = await kinds[1].open(
      { ...sc, sub: { userId: sc.tenant.managerId, username: sc.tenant.name } },
      sc.tenant.auth.slice(7),
    );
    // While it may read, each socket gets its pushes.
    for (const [i, k] of kinds.entries()) {
      const from = sockets[i].got.length;
      await k.poke(sc);
      await sockets[i].next(k.seen, `${k.name} push`, from);
      expect(k.held(sc), k.name).toBe(true);
    }

    await c.cause(sc);

    for (const [i, k] of kinds.entries()) {
      const s = sockets[i];
      const closed = await s.closing();
      expect(closed.code, k.name).toBe(c.close);
      // The error message came last, right before the close.
      expect(s.got[closed.after - 1], k.name).toMatchObject({ t: 'error', code: c.error, ...(c.message ? { message: c.message } : {}) });
      expect(k.held(sc), `${k.name} still subscribed on the server`).toBe(false);
    }
    // Nothing more reaches them: the server holds no subscription for them and sends nothing.
    for (const [i, k] of kinds.entries()) {
      // (A deleted user gets no message at all.)
      await Promise.resolve(k.poke(sc)).catch(() => {});
      expect(sockets[i].got.length, k.name).toBe(sockets[i].closed()?.after);
    }
    expect(socketRegistry(t.app).count(sc.sub.userId)).toBe(0);

    if (c.managerToo) {
      expect((await bystander.closing()).code).toBe(c.close);
    } else {
      // The manager's socket on its own session is untouched.
      const from = bystander.got.length;
      await t.app.ctx.messages.send(sc.tenant.tenantId, sc.tenant.managerId, {
        title: 'Still here',
        content: 'x',
        type: 'system',
        reminderMode: 1,
      });
      await bystander.next((m) => m.t === 'unread', 'push to the bystander', from);
      expect(bystander.closed()).toBeNull();
      bystander.ws.close();
    }
  });

  it("a user's own password change ends its other sessions' sockets, not the one that changed it", async () => {
    const sc = await scene();
    const other = await session(`${sc.sub.username}@${sc.tenant.name}`, PASSWORD);
    const mine = await kinds[1].open(sc, sc.s.token);
    const elsewhere = await kinds[1].open(sc, other.token);
    // Straight through the self service: a sub-user changes its password with the old one.
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/tenant/users/self/password',
      headers: { authorization: `Bearer ${sc.s.token}` },
      payload: { old_password: PASSWORD, password: 'Newer-Pass-789', confirmPassword: 'Newer-Pass-789' },
    });
    ok(res, 204);
    expect((await elsewhere.closing()).code).toBe(SocketClose.sessionEnded);
    const from = mine.got.length;
    await kinds[1].poke(sc);
    await mine.next(kinds[1].seen, 'push on the changing session', from);
    expect(mine.closed()).toBeNull();
    mine.ws.close();
  });

  it('a socket opened with a session that is refused is closed at once with the same codes', async () => {
    const forged = await open('/v1/live', 'forged');
    expect((await forged.closing()).code).toBe(SocketClose.sessionEnded);
    expect(forged.got).toEqual([{ t: 'error', code: 'http.401', message: expect.any(String) }]);

    const sc = await scene();
    ok(await manage(sc, 'PUT', '', { status: 3 }), 200);
    // Disabled, then the same token tries again: not a session problem, an access one.
    await t.database.raw.query('update sessions set revoked_at = null where id = $1', [sc.s.sessionId]);
    const disabled = await open('/v1/live', sc.s.token);
    expect((await disabled.closing()).code).toBe(SocketClose.accessWithdrawn);
    expect(disabled.got[0]).toMatchObject({ t: 'error', code: 'http.403' });
  });
});

describe('a deleted device leaves the sockets that read it, the sessions go on', () => {
  it('ends the subscriptions of that device only, each with an error naming it; the sockets stay open', async () => {
    const sc = await scene();
    const keep = await makeDevice(t, sc.tenant);
    await t.database.raw.query(`insert into user_device_grants (user_id, tenant_id, things_id, access) values ($1,$2,$3,'read')`, [
      sc.sub.userId,
      sc.tenant.tenantId,
      keep.id,
    ]);
    const live = await kinds[0].open(sc, sc.s.token);
    live.ws.send(JSON.stringify({ op: 'subscribe', id: 'keep', kind: 'frames', things_id: keep.id }));
    await live.next((m) => m.t === 'subscribed' && m.id === 'keep', 'subscribed to the kept device');
    const remote = await kinds[2].open(sc, sc.s.token);
    const bell = await kinds[1].open(sc, sc.s.token);

    ok(
      await t.app.inject({
        method: 'DELETE',
        url: `/v1/things/tenants/${sc.tenant.tenantId}/things/${sc.thingsId}`,
        headers: { authorization: sc.tenant.auth },
      }),
      204,
    );

    for (const id of ['f', 's'])
      expect(await live.next((m) => m.t === 'error' && m.id === id, `error of ${id} for the deleted device`)).toMatchObject({
        code: 'http.404',
        things_id: sc.thingsId,
      });
    expect(t.app.ctx.ingest.live.watching(sc.thingsId)).toBe(false);
    expect(t.app.ctx.ingest.live.watchingSignals(sc.thingsId)).toBe(false);
    // The kept device still streams on the same socket.
    const from = live.got.length;
    t.app.ctx.ingest.live.publishStatus(keep.id, true);
    await live.next((m) => m.t === 'status' && m.id === 'keep' && m.things_id === keep.id, 'status of the kept device', from);
    expect(live.closed()).toBeNull();

    expect(await remote.next((m) => m.t === 'error' && m.id === 'r', 'error of the remote subscription')).toMatchObject({
      code: 'http.404',
      things_id: sc.thingsId,
    });
    // Its pushes stop; the socket stays open for whatever else it carries.
    const r = remote.got.length;
    await kinds[2].poke(sc);
    await new Promise((ok) => setTimeout(ok, 200));
    expect(remote.got.slice(r).filter((m) => m.t === 'command')).toEqual([]);
    expect(remote.closed()).toBeNull();

    // The bell reads no device: it stays.
    const b = bell.got.length;
    await kinds[1].poke(sc);
    await bell.next(kinds[1].seen, 'bell push', b);
    expect(bell.closed()).toBeNull();
    live.ws.close();
    bell.ws.close();
    remote.ws.close();
  });
});

describe('on several server copies, an end of sessions made on one closes the sockets of the others', () => {
  let brokerUrl: string;
  let stopBroker = async () => {};
  let shared: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: string;
  let a: LoggerheadApp;
  let b: LoggerheadApp;

  beforeAll(async () => {
    const broker = await externalBroker();
    brokerUrl = broker.url;
    stopBroker = broker.stop;
    shared = await openTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-test-'));
    const copy = async (p: number) => {
      const app = await buildApp(testConfig({ mqttUrl: brokerUrl, dataDir, port: p }), { database: shared.database, logger: false });
      await app.ready();
      await app.listen({ port: 0, host: '127.0.0.1' });
      return app;
    };
    a = await copy(40011);
    b = await copy(40012);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
    await stopBroker();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a logout on copy A closes the session's socket on copy B, and B's session cache forgets it", async () => {
    const onA = { app: a, database: shared.database } as unknown as TestApp;
    const tenant = await makeTenant(onA);
    const res = await a.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: tenant.name, password: PASSWORD, type: 1 },
    });
    const { token, session_id } = res.json();
    const bPort = (b.server.address() as { port: number }).port;
    holdOffPeriodicCheck(b);
    const bell = await open('/v1/live', token, bPort);
    bell.ws.send(JSON.stringify({ op: 'subscribe', id: 'bell', kind: 'messages' }));
    await bell.next((m) => m.t === 'subscribed', 'subscribed');
    // B has the session cached (it just admitted it) and serves it.
    const self = () => b.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: `Bearer ${token}` } });
    expect((await self()).statusCode).toBe(200);

    const out = await a.inject({
      method: 'DELETE',
      url: `/v1/control/sessions/${session_id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(204);
    const closed = await bell.closing();
    expect(closed.code).toBe(SocketClose.sessionEnded);
    expect(bell.got[closed.after - 1]).toMatchObject({ t: 'error', code: 'auth.session-expired' });
    expect(socketRegistry(b).count()).toBe(0);
    // Within B's cache window, B refuses the session at once: the relay made it forget.
    expect((await self()).statusCode).toBe(401);
  });
});
