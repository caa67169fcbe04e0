import { createHash, randomUUID } from 'node:crypto';
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
/**
 * The plugin's default lets every client receive whatever its subscriptions match
 * (`publishClientReceive` allow): the last, lowest-priority entry denies a device every topic but
 * its own down topics, whatever a session it holds was subscribed to.
 */
const RECEIVE_NOTHING_ELSE: Acl = { acltype: 'publishClientReceive', topic: '#', allow: false, priority: -1 };
const deviceAcls = (deviceId: string): Acl[] => [
  { acltype: 'publishClientSend', topic: `${TOPIC_ROOT}/${deviceId}/up/#`, allow: true },
  { acltype: 'subscribePattern', topic: `${TOPIC_ROOT}/${deviceId}/down/#`, allow: true },
  { acltype: 'publishClientReceive', topic: `${TOPIC_ROOT}/${deviceId}/down/#`, allow: true },
  RECEIVE_NOTHING_ELSE,
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
  correlationData?: string;
}

/** The key is never stored twice: the table keeps its digest, to see which passwords the broker lacks. */
export const keyDigest = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * What the broker's client carries (its `textdescription`) to say which key its password is: a
 * short digest of device ID and key, so that a reconciliation reads from the broker itself whether
 * the password it holds is the stored key's (the plugin never gives a password back).
 */
export const keyTag = (deviceId: string, key: string) =>
  `loggerhead key ${createHash('sha256').update(`loggerhead-broker-account:${deviceId}:${key}`).digest('hex').slice(0, 24)}`;

/** A client as `listClients` (verbose) gives it. */
interface BrokerClient {
  username: string;
  clientid?: string;
  textdescription?: string;
  roles?: { rolename: string }[];
}

export interface ReconcileResult {
  /** Devices the broker had no client for (new, or lost by the broker), given one with their stored key. */
  created: number;
  /** Clients whose password was an older key than the device's. */
  rekeyed: number;
  /** Clients that lacked their client id, their role or their tag, set right with the stored key. */
  repaired: number;
  /** Clients of devices that are gone. */
  removed: number;
}

/** How the broker last answered the server's control commands: `refused` when it would not do them. */
export type AccountsState = 'ok' | 'refused';

/** Answers of a plugin that will not act for this account (as opposed to a name taken or not found). */
const REFUSAL = /not authori[sz]ed|permission|denied/i;

interface Log {
  info: (o: object | string, m?: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
}

/**
 * Device accounts on an external Mosquitto, kept by the server through the dynamic-security plugin
 * (`MQTT_DYNSEC`): a device added gets a client (username = device ID, password = things_key, client
 * id = device ID, a role of its own); a re-keyed device gets the new password and its connection
 * closed; a deleted device's client goes. The client id is bound to the account: no one but the
 * device may connect under its client id, so no one else can close its connection or resume its
 * session. A reconciliation at start, at each reconnect to the broker and every few minutes (once
 * across the server copies, app.ts) reads what the broker holds (`listClients`) and puts back what it
 * lacks: a broker that lost its accounts gets them again with the stored keys. The table
 * `broker_accounts` holds which devices this server gave the broker: only those clients are ever
 * deleted; the operator's own, and another deployment's on the same broker, stay.
 */
export class DynsecAccounts {
  private client: MqttClient | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private ops: Promise<unknown> = Promise.resolve();
  private waiting: { id: string; resolve: (r: Response[]) => void; reject: (e: Error) => void } | null = null;
  private readonly repo: BrokerAccountsRepository;
  private lastState: AccountsState = 'ok';
  private closing = false;

  constructor(private readonly opts: { url: string; clientId: string; raw: RawSql; log: Log; timeoutMs?: number }) {
    this.repo = brokerAccountsRepository(opts.raw);
  }

  /** `refused` while the broker does not answer or refuses the server's control commands (health check). */
  state(): AccountsState {
    return this.lastState;
  }

  async start(): Promise<void> {
    const client = mqtt.connect(this.opts.url, { clientId: this.opts.clientId, clean: true, reconnectPeriod: 2000, protocolVersion: 5 });
    this.client = client;
    // Every client subscribed to the response topic gets every answer (an operator's mosquitto_ctrl
    // too): an answer is this request's only when it carries the request's correlation data.
    client.on('message', (topic, payload) => {
      if (topic !== RESPONSE || !this.waiting) return;
      const w = this.waiting;
      let responses: Response[];
      try {
        responses = (JSON.parse(payload.toString()) as { responses?: Response[] }).responses ?? [];
      } catch {
        return;
      }
      if (responses[0]?.correlationData !== w.id) return;
      this.waiting = null;
      w.resolve(responses);
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
    await this.subscribeAnswers(client);
    await this.serial(() => this.ensureRoles());
    await this.reconcile();
    // Back after the broker restarted: it may have come back without the accounts (a dynamic-security
    // file it could not write, an older copy restored), so they are read and put back at once.
    client.on('connect', () => {
      if (this.closing) return;
      void this.subscribeAnswers(client)
        .then(() => this.serial(() => this.ensureRoles()))
        .then(() => this.reconcile())
        .catch((err) => this.opts.log.warn({ err }, 'device accounts not reconciled after the broker came back'));
    });
  }

  /** The plugin's answers; a broker that refuses the topic to this account refuses its commands too. */
  private async subscribeAnswers(client: MqttClient): Promise<void> {
    try {
      const granted = await client.subscribeAsync(RESPONSE, { qos: 1 });
      if (granted.some((g) => g.qos >= 0x80)) throw new Error('the broker refused the dynamic-security response topic');
    } catch (err) {
      // A connection that dropped in between says nothing about the broker's will.
      if (client.connected) this.noteState('refused');
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.ops.catch(() => {});
    await this.chain.catch(() => {});
    await this.client?.endAsync().catch(() => {});
    this.client = null;
  }

  /** Sends commands and waits for their answers, one request at a time (matched by their correlation data). */
  command(commands: Command[]): Promise<Response[]> {
    const run = async () => {
      const client = this.client;
      if (!client) throw new Error('dynamic security is not connected');
      const id = randomUUID();
      const answer = new Promise<Response[]>((resolve, reject) => {
        this.waiting = { id, resolve, reject };
      });
      answer.catch(() => {}); // awaited below unless the publish fails first
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('the broker did not answer the dynamic-security request')),
          this.opts.timeoutMs ?? 10_000,
        );
      });
      timeout.catch(() => {}); // raced below
      try {
        // A QoS 1 publish made while the connection is down waits in mqtt.js for a reconnect: the
        // time-out bounds the send too, so that one lost request never holds up those after it.
        const sent = client.publishAsync(CONTROL, JSON.stringify({ commands: commands.map((c) => ({ ...c, correlationData: id })) }), {
          qos: 1,
        });
        sent.catch(() => {});
        await Promise.race([sent, timeout]);
        const res = await Promise.race([answer, timeout]);
        this.noteState(res.some((r) => r.error && REFUSAL.test(r.error)) ? 'refused' : 'ok');
        return res;
      } catch (err) {
        // Not answered, or the publish refused (the account lost its rights to the plugin's topic);
        // a connection that dropped in between says nothing about the broker's will.
        if (client.connected) this.noteState('refused');
        throw err;
      } finally {
        clearTimeout(timer);
        this.waiting = null;
      }
    };
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => {});
    return next;
  }

  private noteState(state: AccountsState): void {
    if (state === this.lastState) return;
    this.lastState = state;
    if (state === 'refused')
      this.opts.log.error(
        {},
        "the broker refuses or does not answer the dynamic-security commands: device accounts cannot be kept (is MQTT_URL's account the plugin's admin?)",
      );
    else this.opts.log.info('the broker answers the dynamic-security commands again');
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
    if (synced?.key_digest === keyDigest(device.things_key)) return;
    const [r] = await this.command([{ command: 'getClient', username: deviceId }]);
    const held = r?.error ? null : ((r?.data?.client as BrokerClient | undefined) ?? null);
    await this.put(device.device_id, device.things_key, held, synced?.key_digest ?? null);
  }

  /** Every device's account, checked against the clients the broker holds: created, set right and deleted as the database says. */
  reconcile(): Promise<ReconcileResult> {
    return this.serial(async () => {
      // Subscribed again first: a broker that refused the answers' topic before may take it now.
      if (this.client) await this.subscribeAnswers(this.client);
      return this.reconcileNow();
    });
  }

  private async brokerClients(): Promise<Map<string, BrokerClient>> {
    const [r] = await this.command([{ command: 'listClients', verbose: true, count: -1 }]);
    if (!r || r.error) throw new Error(`dynamic security: listClients: ${r?.error ?? 'no answer'}`);
    const clients = (r.data?.clients ?? []) as BrokerClient[];
    return new Map(clients.map((c) => [c.username, c]));
  }

  private async reconcileNow(): Promise<ReconcileResult> {
    const held = await this.brokerClients();
    const devices = await this.repo.devices();
    const synced = new Map((await this.repo.allSynced()).map((s) => [s.device_id, s.key_digest]));
    const out: ReconcileResult = { created: 0, rekeyed: 0, repaired: 0, removed: 0 };
    for (const d of devices) {
      const had = synced.get(d.device_id) ?? null;
      synced.delete(d.device_id);
      const done = await this.put(d.device_id, d.things_key, held.get(d.device_id) ?? null, had);
      if (done !== 'kept') out[done]++;
    }
    // Gone from the database: the clients this server recorded making. Others are left alone, the
    // operator's and those of another deployment sharing the broker (their devices are not in this database).
    for (const gone of synced.keys()) {
      await this.remove(gone);
      out.removed++;
    }
    if (out.created) this.opts.log.warn(out, 'device accounts missing on the broker were created with their stored keys');
    else if (out.rekeyed || out.repaired || out.removed) this.opts.log.info(out, 'device accounts reconciled on the broker');
    return out;
  }

  /**
   * Gives the broker the device's account as it must be, from what it holds (`held`; null: nothing),
   * and records it (`syncedDigest`: the key digest recorded before).
   */
  private async put(
    deviceId: string,
    key: string,
    held: BrokerClient | null,
    syncedDigest: string | null,
  ): Promise<'created' | 'rekeyed' | 'repaired' | 'kept'> {
    const tag = keyTag(deviceId, key);
    const role = deviceRole(deviceId);
    const right = (c: BrokerClient) =>
      c.clientid === deviceId && c.textdescription === tag && (c.roles ?? []).some((r) => r.rolename === role);
    let outcome: 'created' | 'rekeyed' | 'repaired' | 'kept' = 'kept';
    if (!held) {
      const [madeRole, created] = await this.command([
        { command: 'createRole', rolename: role, acls: deviceAcls(deviceId) },
        {
          command: 'createClient',
          username: deviceId,
          clientid: deviceId,
          password: key,
          textdescription: tag,
          roles: [{ rolename: role }],
        },
      ]);
      if (madeRole?.error && !/already exists/i.test(madeRole.error))
        throw new Error(`dynamic security: createRole ${deviceId}: ${madeRole.error}`);
      if (!created?.error) outcome = 'created';
      else if (!/already exists/i.test(created.error)) throw new Error(`dynamic security: createClient ${deviceId}: ${created.error}`);
      else held = { username: deviceId }; // made in between: set right below
    }
    if (held && !right(held)) {
      const res = await this.command([
        { command: 'createRole', rolename: role, acls: deviceAcls(deviceId) },
        // A role made before its receive rule: the rule is added (an existing one is left as it is).
        { command: 'addRoleACL', rolename: role, ...RECEIVE_NOTHING_ELSE },
        { command: 'modifyClient', username: deviceId, clientid: deviceId, password: key, textdescription: tag },
        { command: 'addClientRole', username: deviceId, rolename: role },
        { command: 'enableClient', username: deviceId },
      ]);
      if (res[2]?.error) throw new Error(`dynamic security: modifyClient ${deviceId}: ${res[2].error}`);
      // A new key or a client id now bound: the connections made before are closed.
      await this.command([
        { command: 'disableClient', username: deviceId },
        { command: 'enableClient', username: deviceId },
      ]);
      outcome = held.textdescription?.startsWith('loggerhead key ') && held.textdescription !== tag ? 'rekeyed' : 'repaired';
    }
    const digest = keyDigest(key);
    if (syncedDigest !== digest) await this.repo.markSynced(deviceId, digest);
    return outcome;
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
