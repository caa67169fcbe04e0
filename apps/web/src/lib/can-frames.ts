import { CAN_FD_LENGTHS, MAX_CAN_COMMAND_FRAMES } from '@loggerhead/contract/schemas/command.ts';

/** One frame row as the form holds it: id and data as typed hex text. */
export interface FrameRow {
  key: number;
  channel: number;
  id: string;
  ext: boolean;
  fd: boolean;
  brs: boolean;
  data: string;
}

/** A frame row with nothing typed yet. */
export const emptyFrameRow = (key: number): FrameRow => ({ key, channel: 0, id: '', ext: false, fd: false, brs: false, data: '' });

/** i18n keys (under `common.frames.error.`) of what is wrong with a row; empty = valid. */
export type FrameError = 'idHex' | 'idStd' | 'idExt' | 'dataHex' | 'dataOdd' | 'canLength' | 'fdLength' | 'brsNeedsFd';

const HEX = /^[0-9a-fA-F]+$/;

/** Spec §5 rules of a CAN / CAN FD frame, the same the server applies, so the user sees them before sending. */
export function frameErrors(row: FrameRow): FrameError[] {
  const errors: FrameError[] = [];
  const id = row.id.trim().replace(/^0x/i, '');
  if (!HEX.test(id) || id.length > 8) errors.push('idHex');
  else {
    const value = Number.parseInt(id, 16);
    if (!row.ext && value > 0x7ff) errors.push('idStd');
    if (row.ext && value > 0x1fffffff) errors.push('idExt');
  }
  const data = compactHex(row.data);
  if (data !== '' && !HEX.test(data)) errors.push('dataHex');
  else if (data.length % 2 !== 0) errors.push('dataOdd');
  else {
    const len = data.length / 2;
    if (!row.fd && len > 8) errors.push('canLength');
    if (row.fd && !CAN_FD_LENGTHS.includes(len)) errors.push('fdLength');
  }
  if (row.brs && !row.fd) errors.push('brsNeedsFd');
  return errors;
}

/** Data may be typed with spaces between bytes; the device gets plain hex. */
export function compactHex(text: string): string {
  return text.replace(/\s+/g, '');
}

export function canAddFrame(count: number): boolean {
  return count < MAX_CAN_COMMAND_FRAMES;
}

/** The `common_fn.send_can` frames of valid rows (ids as hex strings, as the contract accepts). */
export function toCommandFrames(rows: FrameRow[]) {
  return rows.map((r) => ({
    channel: r.channel,
    id: r.id.trim().replace(/^0x/i, ''),
    ext: r.ext,
    fd: r.fd,
    brs: r.fd && r.brs,
    data: compactHex(r.data).toUpperCase(),
  }));
}
