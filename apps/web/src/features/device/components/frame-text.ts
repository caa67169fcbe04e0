import { formatCanId, formatMicroTime, spacedHex } from '../../../components/data-view/can-text.ts';
import { FLAG } from '../live/frame-ring.ts';

type T = (key: string) => string;

/**
 * "Ext FD BRS" / "Std Remote" … the frame's kind in words of the current language. An error frame
 * is one, on a CAN FD channel or not: it has no standard or extended identifier.
 */
export function frameKind(flags: number, t: T): string {
  if (flags & FLAG.err) return flags & FLAG.fd ? `${t('device.frame.error')} FD` : t('device.frame.error');
  const parts = [flags & FLAG.ext ? t('device.frame.ext') : t('device.frame.std')];
  if (flags & FLAG.fd) parts.push(flags & FLAG.brs ? 'FD BRS' : 'FD');
  if (flags & FLAG.rtr) parts.push(t('device.frame.remote'));
  return parts.join(' ');
}

/**
 * The ID column: the arbitration id, or for an error frame its error class / damaged frame's id
 * as the log had it (`0x80`), or a dash when it had none.
 */
export function frameIdText(id: number, flags: number): string {
  if (flags & FLAG.err) return id ? `0x${id.toString(16).toUpperCase()}` : '—';
  return formatCanId(id, (flags & FLAG.ext) !== 0);
}

export const frameDir = (flags: number, t: T) => (flags & FLAG.tx ? t('device.frame.tx') : t('device.frame.rx'));

export const frameFlags = (f: { ext: boolean; fd: boolean; brs: boolean; rtr: boolean; err: boolean; tx: boolean }) =>
  (f.ext ? FLAG.ext : 0) |
  (f.fd ? FLAG.fd : 0) |
  (f.brs ? FLAG.brs : 0) |
  (f.rtr ? FLAG.rtr : 0) |
  (f.err ? FLAG.err : 0) |
  (f.tx ? FLAG.tx : 0);

export { formatCanId, formatMicroTime, spacedHex };
