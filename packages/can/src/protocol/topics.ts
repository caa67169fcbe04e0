/**
 * MQTT topics of the device protocol. Every topic a device may use starts with
 * `lh/v1/{deviceId}/`; the broker's ACL lets a device touch only its own.
 */
export const TOPIC_ROOT = 'lh/v1';

export const UPLINKS = ['frames', 'status', 'gps', 'resp', 'telemetry', 'twin'] as const;
export type Uplink = (typeof UPLINKS)[number];

export const upTopic = (deviceId: string, kind: Uplink) => `${TOPIC_ROOT}/${deviceId}/up/${kind}`;
/** What a gateway publishes for its child `childId` (docs/device-protocol.md, gateways). */
export const childUpTopic = (gatewayId: string, childId: string, kind: Uplink) => `${TOPIC_ROOT}/${gatewayId}/up/sub/${childId}/${kind}`;
export const downTopic = (deviceId: string, kind: string) => `${TOPIC_ROOT}/${deviceId}/down/${kind}`;
/** What a device subscribes to for commands, config and other downlinks. */
export const downFilter = (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/down/#`;
/** What the server subscribes to on an external broker (MQTT 5 shared subscription when available). */
export const SERVER_SHARED_FILTER = `$share/loggerhead/${TOPIC_ROOT}/+/up/#`;
export const SERVER_FILTER = `${TOPIC_ROOT}/+/up/#`;

export const DEVICE_ID_PATTERN = /^[0-9A-F]{20}$/;

export interface ParsedTopic {
  deviceId: string;
  direction: 'up' | 'down';
  /** The rest after up/ or down/ (e.g. `frames`, `cmd`). */
  kind: string;
}

export function parseTopic(topic: string): ParsedTopic | null {
  const parts = topic.split('/');
  if (parts.length < 5 || parts[0] !== 'lh' || parts[1] !== 'v1') return null;
  const deviceId = parts[2];
  const direction = parts[3];
  if (!DEVICE_ID_PATTERN.test(deviceId) || (direction !== 'up' && direction !== 'down')) return null;
  return { deviceId, direction, kind: parts.slice(4).join('/') };
}

export function isUplink(kind: string): kind is Uplink {
  return (UPLINKS as readonly string[]).includes(kind);
}

/** `sub/{childId}/{kind}` of a gateway's uplink topic: the child and the uplink it forwards, else null. */
export function parseChildKind(kind: string): { childId: string; kind: string } | null {
  const parts = kind.split('/');
  if (parts.length !== 3 || parts[0] !== 'sub' || !DEVICE_ID_PATTERN.test(parts[1])) return null;
  return { childId: parts[1], kind: parts[2] };
}
