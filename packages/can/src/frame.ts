/**
 * One CAN / CAN FD frame as the device saw it. Shared by the log readers and
 * writers, the device protocol codec, storage and export.
 */
export interface CanFrame {
  /** Time in microseconds (since the Unix epoch when the source has absolute time, else since the log start). */
  ts: number;
  /** Bus channel, 0-based (`can0` / ASC channel 1 is 0). */
  channel: number;
  /** Arbitration id (11 or 29 bits). */
  id: number;
  /** 29-bit identifier. */
  ext: boolean;
  /** CAN FD frame. */
  fd: boolean;
  /** CAN FD bit-rate switch. */
  brs: boolean;
  /** CAN FD error state indicator. */
  esi: boolean;
  /** Remote frame. */
  rtr: boolean;
  /** Error frame. */
  err: boolean;
  /** Transmitted by the logger itself (true) or received (false). */
  tx: boolean;
  /** Payload bytes; for a remote frame, an empty array and `dlc` carries the requested length. */
  data: Uint8Array;
  /** Data length code as sent (for remote frames; otherwise derived from data.length). */
  dlc?: number;
}

/** CAN FD payload lengths allowed (spec §5: 0-8, 12, 16, 20, 24, 32, 48, 64). */
export const FD_LENGTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64] as const;

export function dlcToLength(dlc: number): number {
  return dlc <= 8 ? dlc : FD_LENGTHS[Math.min(dlc, 15)];
}

export function lengthToDlc(len: number): number {
  if (len <= 8) return len;
  const i = FD_LENGTHS.findIndex((l) => l >= len);
  return i < 0 ? 15 : i;
}

export function makeFrame(p: Partial<CanFrame> & Pick<CanFrame, 'id' | 'data'>): CanFrame {
  return { ts: 0, channel: 0, ext: p.id > 0x7ff, fd: false, brs: false, esi: false, rtr: false, err: false, tx: false, ...p };
}
