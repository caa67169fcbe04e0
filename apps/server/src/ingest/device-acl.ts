import { DEVICE_ID_PATTERN, parseTopic, TOPIC_ROOT } from '@loggerhead/can/protocol/topics.ts';

/**
 * What a device may do on a broker, whichever broker asks: the embedded one (aedes-hooks.ts) or an
 * external one through HTTP authorization (modules/broker). Its username is its device ID; its
 * client ID is the device ID or starts with it and a dash; it publishes only its own up topics and
 * subscribes only to its own down topics.
 */
export function deviceMayConnect(deviceId: string, clientId: string): boolean {
  return DEVICE_ID_PATTERN.test(deviceId) && (clientId === deviceId || clientId.startsWith(`${deviceId}-`));
}

/**
 * The device a client id belongs to (its device ID, alone or before a dash), or null: such a client
 * id is that device's only, whoever else asks for it (another device, or any other account).
 */
export function clientIdDevice(clientId: string): string | null {
  const head = clientId.split('-', 1)[0];
  return DEVICE_ID_PATTERN.test(head) ? head : null;
}

export function deviceMaySubscribe(deviceId: string, filter: string): boolean {
  const prefix = `${TOPIC_ROOT}/${deviceId}/down/`;
  return filter === `${prefix}#` || (filter.startsWith(prefix) && !filter.slice(prefix.length).includes('#'));
}

export function deviceMayPublish(deviceId: string, topic: string): boolean {
  const t = parseTopic(topic);
  return t?.direction === 'up' && t.deviceId === deviceId;
}
