import { createHash } from 'node:crypto';
import { TOPIC_ROOT } from '@loggerhead/can/protocol/topics.ts';
import mqtt, { type MqttClient } from 'mqtt';
import type { RawSql } from '../db/client.ts';
import { type BrokerAccountsRepository, brokerAccountsRepository } from './broker-accounts.repository.ts';

/** Topics of Mosquitto's dynamic-security plugin (mosquitto.org/documentation/dynamic-security). */
const CONTROL = '$CONTROL/dynamic-security/v1';
const RESPONSE = `${CONTROL}/response`;
/**
 * Each device's client holds a role of its own: its up topics to publish, its down topics to read.
 * (Mosquitto 2.0 substitutes `%u` in subscribe ACLs only, so one shared role cannot say "its own".)
 */
export const deviceRole = (deviceId: string) => `loggerhead-device-${deviceId}`;
/** The servers' client gets this role: every device's up and down topics and the copies' own topics. */
export const SERVER_ROLE = 'loggerhead-server';

type Acl = { acltype: string; topic: string; allow: boolean; priority?: number };
const deviceAcls = (deviceId: string): Acl[] => [
  { acltype: 'publishClientSend', topic: `${TOPIC_ROOT}/${deviceId}/up/#`, allow: true },
  { acltype: 'subscribePattern', topic: `${TOPIC_ROOT}/${deviceId}/down/#`, allow: true },
  { acltype: 'publishClientReceive', topic: `${TOPIC_ROOT}/${deviceId}/down/#`, allow: true },
];
const SERVER_ACLS: Acl[] = [
  { acltype: 'subscribePattern', topic: `${TOPIC_ROOT}/+/up/#`, allow: true },
  { acltype: 'subscribePattern', topic: `$share/+/${TOPIC_ROOT}/+/up/#`, allow: true },
  { acltype: 'publishClientReceive', topic: `${TOPIC_ROOT}/+/up/#`, allow: true },
  { acltype: 'publishClientSend', topic: `${TOPIC_ROOT}/+/down/#`, allow: true },
  { acltype: 'subscribePattern', topic: 'loggerhead/cluster/#', allow: true },
  { acltype: 'publishClientSend', topic: 'loggerhead/cluster/#', allow: true },
  { acltype: 'publishClientReceive', topic: 'loggerhead/cluster/#', allow: true },
];

interface Command {
  command: string;
  [k: string]: unknown;
}
interface Response {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
}

/** The key is never stored twice: the table keeps its digest, to see which passwords the broker lacks. */
export const keyDigest = (key: string) => createHash('sha256').update(key).digest('hex');

interface Log {
  info: (o: object | string, m?: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
}

/**
 * Device accounts on an external Mosquitto, kept by the server through the dynamic-security plugin
 * (`MQTT_DYNSEC`): a device added gets a client (username = device ID, password = things_key, a role
 * of its own); a re-keyed device gets the new password and its connection closed; a deleted
 * device's client goes. A reconciliation at start and every few minutes (once across the server copies, app.ts) catches what a broker
 * outage missed: the table `broker_accounts` holds which device and key digest the broker was given.
 * Only clients this server created are ever deleted; the operator's own accounts are left alone.
 */
export class DynsecAccounts {
  private client: MqttClient | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private ops: Promise<unknown> = Promise.resolve();
  private waiting: { resolve: (r: Response[]) => void; reject: (e: Error) => void } | null = null;
  private readonly repo: BrokerAccountsRepository;

  constructor(private readonly opts: { url: string; clientId: string; raw: RawSql; log: Log; timeoutMs?: number }) {
    this.repo = brokerAccountsRepository(opts.raw);
  }

  async start(): Promise<void> {
    const client = mqtt.connect(this.opts.url, { clientId: this.opts.clientId, clean: true, reconnectPeriod: 2000, protocolVersion: 5 });
    this.client = client;
    client.on('message', (topic, payload) => {
      if (topic !== RESPONSE || !this.waiting) return;
      const w = this.waiting;
      this.waiting = null;
      try {
        w.resolve((JSON.parse(payload.toString()) as { responses: Response[] }).responses ?? []);
      } catch (e) {
        w.reject(e as Error);
      }
    });
    client.on('error', (err) => this.opts.log.warn({ err }, 'dynamic-security connection'));
    // An answer sent while the connection is down is lost: the request fails at once, not at its time-out.
    client.on('close', () => {
      const w = this.waiting;
      this.waiting = null;
      w?.reject(new Error('the connection to the broker closed before the dynamic-security answer'));
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        client.end(true);
        reject(new Error('MQTT_DYNSEC: the broker of MQTT_URL did not accept the connection in 15 s'));
      }, 15_000);
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      client.once('error', (err) => {
        clearTimeout(timer);
        client.end(true);
        reject(new Error(`MQTT_DYNSEC: ${err.message}`));
      });
    });
    await client.subscribeAsync(RESPONSE, { qos: 1 });
    await this.ensureRoles();
    await this.reconcile();
  }

  async close(): Promise<void> {
    await this.ops.catch(() => {});
    await this.chain.catch(() => {});
    await this.client?.endAsync().catch(() => {});
    this.client = null;
  }

  /** Sends commands and waits for their answers, one request at a time (answers carry no id). */
  command(commands: Command[]): Promise<Response[]> {
    const run = async () => {
      const client = this.client;
      if (!client) throw new Error('dynamic security is not connected');
      const answer = new Promise<Response[]>((resolve, reject) => {
        this.waiting = { resolve, reject };
      });
      answer.catch(() => {}); // awaited below unless the publish fails first
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('the broker did not answer the dynamic-security request')),
          this.opts.timeoutMs ?? 10_000,
        );
      });
      try {
        await client.publishAsync(CONTROL, JSON.stringify({ commands }), { qos: 1 });
        return await Promise.race([answer, timeout]);
      } finally {
        clearTimeout(timer);
        this.waiting = null;
      }
    };
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => {});
    return next;
  }

  private async ensureRoles(): Promise<void> {
    const res = await this.command([{ command: 'createRole', rolename: SERVER_ROLE, acls: SERVER_ACLS }]);
    for (const r of res) if (r.error && !/already exists/i.test(r.error)) throw new Error(`dynamic security: ${r.command}: ${r.error}`);
    const user = decodeURIComponent(new URL(this.opts.url).username);
    // The servers' own account gets the server role once. Mosquitto closes the connections of a client
    // whose roles change, this one's too, so the answer may be lost: the role is read back instead.
    if (!user || (await this.hasRole(user, SERVER_ROLE))) return;
    await this.command([{ command: 'addClientRole', username: user, rolename: SERVER_ROLE }]).catch(() => {});
    if (!this.client?.connected) await new Promise((r) => this.client?.once('connect', r));
    if (!(await this.hasRole(user, SERVER_ROLE)))
      this.opts.log.warn(
        { user },
        'the server account could not be given the loggerhead-server role: give it the rights of docs/device-protocol.md',
      );
  }

  private async hasRole(username: string, rolename: string): Promise<boolean> {
    const [r] = await this.command([{ command: 'getClient', username }]);
    const roles = ((r?.data?.client as { roles?: { rolename: string }[] } | undefined)?.roles ?? []).map((x) => x.rolename);
    return roles.includes(rolename);
  }

  /** Brings one device's account in line with the database (added, re-keyed or deleted). */
  sync(deviceId: string): Promise<void> {
    return this.serial(() => this.syncNow(deviceId));
  }

  /** One change at a time: a device deleted while its account is being created ends with no account. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.ops.then(fn, fn);
    this.ops = next.catch(() => {});
    return next;
  }

  private async syncNow(deviceId: string): Promise<void> {
    const device = await this.repo.device(deviceId);
    const synced = await this.repo.synced(deviceId);
    if (!device) {
      if (synced) await this.remove(deviceId);
      return;
    }
    await this.put(device.device_id, device.things_key, synced?.key_digest ?? null);
  }

  /** Every device's account: created, re-keyed and deleted as the database says. Returns what changed. */
  reconcile(): Promise<{ created: number; rekeyed: number; removed: number }> {
    return this.serial(() => this.reconcileNow());
  }

  private async reconcileNow(): Promise<{ created: number; rekeyed: number; removed: number }> {
    const devices = await this.repo.devices();
    const synced = new Map((await this.repo.allSynced()).map((s) => [s.device_id, s.key_digest]));
    const out = { created: 0, rekeyed: 0, removed: 0 };
    for (const d of devices) {
      const had = synced.get(d.device_id) ?? null;
      synced.delete(d.device_id);
      if (had === keyDigest(d.things_key)) continue;
      await this.put(d.device_id, d.things_key, had);
      if (had === null) out.created++;
      else out.rekeyed++;
    }
    for (const gone of synced.keys()) {
      await this.remove(gone);
      out.removed++;
    }
    if (out.created || out.rekeyed || out.removed) this.opts.log.info(out, 'device accounts reconciled on the broker');
    return out;
  }

  private async put(deviceId: string, key: string, hadDigest: string | null): Promise<void> {
    const digest = keyDigest(key);
    if (hadDigest === digest) return;
    const [role, created] = await this.command([
      { command: 'createRole', rolename: deviceRole(deviceId), acls: deviceAcls(deviceId) },
      { command: 'createClient', username: deviceId, password: key, roles: [{ rolename: deviceRole(deviceId) }] },
    ]);
    if (role?.error && !/already exists/i.test(role.error)) throw new Error(`dynamic security: createRole ${deviceId}: ${role.error}`);
    if (created?.error) {
      if (!/already exists/i.test(created.error)) throw new Error(`dynamic security: createClient ${deviceId}: ${created.error}`);
      const res = await this.command([
        { command: 'setClientPassword', username: deviceId, password: key },
        { command: 'addClientRole', username: deviceId, rolename: deviceRole(deviceId) },
        { command: 'enableClient', username: deviceId },
      ]);
      if (res[0]?.error) throw new Error(`dynamic security: setClientPassword ${deviceId}: ${res[0].error}`);
      // A new key closes the connections made with an old one.
      await this.command([
        { command: 'disableClient', username: deviceId },
        { command: 'enableClient', username: deviceId },
      ]);
    }
    await this.repo.markSynced(deviceId, digest);
  }

  private async remove(deviceId: string): Promise<void> {
    const [r] = await this.command([
      { command: 'deleteClient', username: deviceId },
      { command: 'deleteRole', rolename: deviceRole(deviceId) },
    ]);
    if (r?.error && !/not found/i.test(r.error)) throw new Error(`dynamic security: deleteClient ${deviceId}: ${r.error}`);
    await this.repo.unmarkSynced(deviceId);
  }
}
