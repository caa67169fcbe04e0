import mqttPacket from 'mqtt-packet';

/**
 * aedes 1.2 speaks MQTT 3.1.1 only and refuses an MQTT 5 CONNECT. Loggers speak both, so the
 * embedded broker accepts MQTT 5 this way: the connection's parser keeps decoding MQTT 5 (it
 * understands it), aedes sees the session as 3.1.1, and every packet written to that connection is
 * encoded as MQTT 5 (reason codes in place of return codes). MQTT 5-only features — properties
 * the broker would have to act on, such as topic aliases or message expiry — are not implemented.
 */
const V5 = Symbol.for('loggerhead.mqtt5');

/** v4 CONNACK return code → v5 reason code. */
const CONNACK_V5: Record<number, number> = { 0: 0, 1: 0x84, 2: 0x85, 3: 0x88, 4: 0x86, 5: 0x87 };

type Stream = { [V5]?: boolean };
// biome-ignore lint/suspicious/noExplicitAny: mqtt-packet's packet union is wider than we need here
type AnyPacket = any;

let installed = false;

/** Installs the write side once per process (it only touches connections marked as MQTT 5). */
export function installMqtt5Writes() {
  if (installed) return;
  installed = true;
  const m = mqttPacket as unknown as { writeToStream: (p: AnyPacket, s: unknown, o?: object) => boolean };
  const orig = m.writeToStream;
  // biome-ignore lint/suspicious/noExplicitAny: the signature of mqtt-packet's writeToStream
  const wrapped = (packet: AnyPacket, stream: any, opts?: object) => {
    if (!stream?.[V5]) return orig(packet, stream, opts);
    let p = packet;
    if (p.cmd === 'connack' && p.reasonCode === undefined) p = { ...p, reasonCode: CONNACK_V5[p.returnCode] ?? 0x80 };
    else if (p.cmd === 'suback') p = { ...p, granted: p.granted.map((g: number) => (g === 128 ? 0x87 : g)) };
    else if (p.cmd === 'unsuback' && !p.granted) p = { ...p, granted: [0] };
    return orig(p, stream, { ...opts, protocolVersion: 5 });
  };
  Object.assign(wrapped, orig);
  m.writeToStream = wrapped;
}

/** Read side, per connection: see the module comment. */
// biome-ignore lint/suspicious/noExplicitAny: aedes keeps the parser private
export function acceptMqtt5(parser: any, conn: object) {
  const emit = parser.emit;
  parser.emit = function (this: typeof parser, ev: string, pkt: AnyPacket, ...rest: unknown[]) {
    if (ev === 'packet' && pkt?.cmd === 'connect' && pkt.protocolVersion === 5) {
      this.settings = { ...pkt }; // the parser keeps decoding MQTT 5
      (conn as Stream)[V5] = true;
      return emit.call(this, ev, { ...pkt, protocolVersion: 4 }, ...rest);
    }
    return emit.call(this, ev, pkt, ...rest);
  };
}
