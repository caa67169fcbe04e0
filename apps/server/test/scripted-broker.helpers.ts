import net from 'node:net';
import mqttPacket, { type IConnectPacket, type IPublishPacket, type Packet } from 'mqtt-packet';

/**
 * A broker whose deliveries a test chooses and whose PUBACKs it sees, which Mosquitto does not show:
 * it accepts any CONNECT (MQTT 5 or 3.1.1), grants every subscription, acknowledges what clients
 * publish without routing it, and sends `deliver`'s messages (QoS 1) to one client. Like a broker
 * with persistent sessions, it re-sends a client's unacknowledged messages, in order and marked as
 * duplicates, when that client id connects again.
 */
export interface ScriptedBroker {
  url: string;
  /** CONNECT packets in arrival order. */
  connects: IConnectPacket[];
  /** PUBACKs received, in order, with the client id and the number of the connection (its CONNECT's index) they came on. */
  acks: { clientId: string; connection: number; messageId: number }[];
  /** Sends a QoS 1 message to the connected client whose id ends with `suffix`; returns its message id. */
  deliver(suffix: string, topic: string, payload: Buffer): number;
  /** SUBSCRIBE packets: the client id, its connection's number and the filters. */
  subscribes: { clientId: string; connection: number; filters: string[] }[];
  /** Drops the connection of the client whose id ends with `suffix` (its session stays). */
  drop(suffix: string): void;
  /** Client ids connected now. */
  connected(): string[];
  /** Messages sent to the client and not acknowledged. */
  unacked(clientId: string): number[];
  stop(): Promise<void>;
}

export async function startScriptedBroker(): Promise<ScriptedBroker> {
  const sessions = new Map<string, { nextId: number; unacked: Map<number, IPublishPacket> }>();
  const sockets = new Map<string, { sock: net.Socket; version: 4 | 5 }>();
  const connects: IConnectPacket[] = [];
  const acks: { clientId: string; connection: number; messageId: number }[] = [];
  const subscribes: { clientId: string; connection: number; filters: string[] }[] = [];
  const all = new Set<net.Socket>();

  const server = net.createServer((sock) => {
    all.add(sock);
    const parser = mqttPacket.parser({ protocolVersion: 5 });
    let clientId = '';
    let version: 4 | 5 = 5;
    let connection = -1;
    const send = (p: Packet) => {
      if (!sock.destroyed) mqttPacket.writeToStream(p, sock, { protocolVersion: version });
    };
    parser.on('packet', (p: Packet) => {
      switch (p.cmd) {
        case 'connect': {
          connection = connects.push(p) - 1;
          clientId = p.clientId;
          version = p.protocolVersion === 5 ? 5 : 4;
          (parser as unknown as { settings: { protocolVersion: number } }).settings.protocolVersion = version;
          sockets.get(clientId)?.sock.destroy();
          sockets.set(clientId, { sock, version });
          const session = sessions.get(clientId) ?? { nextId: 1, unacked: new Map() };
          sessions.set(clientId, session);
          send({ cmd: 'connack', returnCode: 0, reasonCode: 0, sessionPresent: session.unacked.size > 0 });
          for (const m of session.unacked.values()) send({ ...m, dup: true });
          break;
        }
        case 'subscribe':
          subscribes.push({ clientId, connection, filters: p.subscriptions.map((x) => x.topic) });
          send({ cmd: 'suback', messageId: p.messageId, granted: p.subscriptions.map(() => 1) });
          break;
        case 'publish':
          if (p.qos === 1) send({ cmd: 'puback', messageId: p.messageId ?? 0 });
          break;
        case 'puback':
          acks.push({ clientId, connection, messageId: p.messageId ?? 0 });
          sessions.get(clientId)?.unacked.delete(p.messageId ?? 0);
          break;
        case 'pingreq':
          send({ cmd: 'pingresp' });
          break;
        case 'disconnect':
          sock.end();
          break;
      }
    });
    sock.on('data', (d) => parser.parse(d));
    sock.on('error', () => {});
    sock.on('close', () => {
      all.delete(sock);
      if (sockets.get(clientId)?.sock === sock) sockets.delete(clientId);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;

  return {
    url: `mqtt://127.0.0.1:${port}`,
    connects,
    acks,
    subscribes,
    drop(suffix) {
      const id = [...sockets.keys()].find((k) => k.endsWith(suffix));
      if (id) sockets.get(id)?.sock.destroy();
    },
    deliver(suffix, topic, payload) {
      const id = [...sockets.keys()].find((k) => k.endsWith(suffix));
      if (!id) throw new Error(`no client ending with ${suffix} is connected`);
      const session = sessions.get(id) as { nextId: number; unacked: Map<number, IPublishPacket> };
      const messageId = session.nextId++;
      const p: IPublishPacket = { cmd: 'publish', topic, payload, qos: 1, dup: false, retain: false, messageId };
      session.unacked.set(messageId, p);
      const s = sockets.get(id) as { sock: net.Socket; version: 4 | 5 };
      mqttPacket.writeToStream(p, s.sock, { protocolVersion: s.version });
      return messageId;
    },
    connected: () => [...sockets.keys()],
    unacked: (clientId) => [...(sessions.get(clientId)?.unacked.keys() ?? [])],
    async stop() {
      for (const s of all) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
