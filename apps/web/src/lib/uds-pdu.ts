import { UDS_PDU_RE } from '@loggerhead/contract/schemas/uds.ts';

/** Spec §5 UDS raw request: hex bytes separated by single spaces ("10 03"). */
export const isPdu = (text: string) => UDS_PDU_RE.test(text.trim());

const hex2 = (n: number) => (n & 0xff).toString(16).toUpperCase().padStart(2, '0');
const word = (n: number) => `${hex2(n >> 8)} ${hex2(n)}`;

/** "0a0b 0C" / "0A 0B 0C" → "0A 0B 0C"; null when not whole hex bytes. */
export function normaliseBytes(text: string): string | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') return '';
  if (!/^[0-9a-fA-F]+$/.test(compact) || compact.length % 2 !== 0) return null;
  return (compact.toUpperCase().match(/../g) ?? []).join(' ');
}

/** A CAN address for the frame type: standard ≤ 7FF, extended ≤ 1FFFFFFF; null when out of range or not hex. */
export function parseAddress(text: string, frameType: 'standard' | 'extended'): number | null {
  const s = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{1,8}$/.test(s)) return null;
  const v = Number.parseInt(s, 16);
  return v <= (frameType === 'extended' ? 0x1fffffff : 0x7ff) ? v : null;
}

export const formatAddress = (n: number | null | undefined) => (n === null || n === undefined ? '--' : `0x${n.toString(16).toUpperCase()}`);

/** The PDU of each diagnostic service of the UDS tab (ISO 14229 service ids). */
export const udsPdu = {
  session: (type: number) => `10 ${hex2(type)}`,
  reset: (type: number) => `11 ${hex2(type)}`,
  readDid: (did: number) => `22 ${word(did)}`,
  writeDid: (did: number, data: string) => `2E ${word(did)}${data ? ` ${data}` : ''}`,
  /** Odd level = request seed; the key goes with level + 1. */
  requestSeed: (level: number) => `27 ${hex2(level)}`,
  sendKey: (level: number, key: string) => `27 ${hex2(level + 1)}${key ? ` ${key}` : ''}`,
  routine: (sub: 1 | 2 | 3, rid: number, options: string) => `31 ${hex2(sub)} ${word(rid)}${options ? ` ${options}` : ''}`,
  testerPresent: () => '3E 00',
};
