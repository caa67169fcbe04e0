/**
 * ISO 14229-1 (UDS) request encoders and response decoders for the services the console uses.
 * Pure: PDUs are byte arrays (what ISO-TP carries), nothing is sent here.
 */

export const Sid = {
  sessionControl: 0x10,
  ecuReset: 0x11,
  clearDtc: 0x14,
  readDtc: 0x19,
  readDid: 0x22,
  securityAccess: 0x27,
  writeDid: 0x2e,
  routineControl: 0x31,
  requestDownload: 0x34,
  transferData: 0x36,
  transferExit: 0x37,
  testerPresent: 0x3e,
} as const;

export const Session = { default: 0x01, programming: 0x02, extended: 0x03 } as const;
export const RoutineControl = { start: 0x01, stop: 0x02, results: 0x03 } as const;

/** Negative response codes (ISO 14229-1 Annex A). */
export const Nrc: Record<number, string> = {
  16: 'generalReject',
  17: 'serviceNotSupported',
  18: 'subFunctionNotSupported',
  19: 'incorrectMessageLengthOrInvalidFormat',
  20: 'responseTooLong',
  33: 'busyRepeatRequest',
  34: 'conditionsNotCorrect',
  36: 'requestSequenceError',
  37: 'noResponseFromSubnetComponent',
  38: 'failurePreventsExecutionOfRequestedAction',
  49: 'requestOutOfRange',
  51: 'securityAccessDenied',
  53: 'invalidKey',
  54: 'exceededNumberOfAttempts',
  55: 'requiredTimeDelayNotExpired',
  112: 'uploadDownloadNotAccepted',
  113: 'transferDataSuspended',
  114: 'generalProgrammingFailure',
  115: 'wrongBlockSequenceCounter',
  120: 'requestCorrectlyReceivedResponsePending',
  126: 'subFunctionNotSupportedInActiveSession',
  127: 'serviceNotSupportedInActiveSession',
};
export const NRC_RESPONSE_PENDING = 0x78;

export type UdsRequest =
  | { service: 'sessionControl'; session: number; suppress?: boolean }
  | { service: 'ecuReset'; type: number; suppress?: boolean }
  | { service: 'readDid'; dids: number[] }
  | { service: 'writeDid'; did: number; data: Uint8Array }
  | { service: 'readDtc'; subFunction?: number; statusMask: number }
  | { service: 'clearDtc'; group: number }
  | { service: 'securityAccess'; level: number; key?: Uint8Array }
  | { service: 'routineControl'; control: number; routine: number; data?: Uint8Array }
  | { service: 'testerPresent'; suppress?: boolean }
  | { service: 'requestDownload'; address: number; size: number; addressBytes?: number; sizeBytes?: number; dataFormat?: number }
  | { service: 'transferData'; counter: number; data: Uint8Array }
  | { service: 'transferExit'; data?: Uint8Array };

const be = (v: number, n: number) => {
  const out = new Uint8Array(n);
  let x = BigInt(v);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
};
const readBe = (b: Uint8Array, at: number, n: number) => {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[at + i];
  return v;
};
const cat = (...parts: (Uint8Array | number[])[]) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const sub = (v: number, suppress?: boolean) => (v & 0x7f) | (suppress ? 0x80 : 0);

export function encodeRequest(r: UdsRequest): Uint8Array {
  switch (r.service) {
    case 'sessionControl':
      return Uint8Array.of(Sid.sessionControl, sub(r.session, r.suppress));
    case 'ecuReset':
      return Uint8Array.of(Sid.ecuReset, sub(r.type, r.suppress));
    case 'readDid':
      if (r.dids.length === 0) throw new RangeError('at least one DID');
      return cat([Sid.readDid], ...r.dids.map((d) => be(d, 2)));
    case 'writeDid':
      return cat([Sid.writeDid], be(r.did, 2), r.data);
    case 'readDtc':
      return Uint8Array.of(Sid.readDtc, r.subFunction ?? 0x02, r.statusMask & 0xff);
    case 'clearDtc':
      return cat([Sid.clearDtc], be(r.group & 0xffffff, 3));
    case 'securityAccess':
      // Odd sub-function: request seed; even (level + 1): send key.
      return r.key ? cat([Sid.securityAccess, r.level + 1], r.key) : Uint8Array.of(Sid.securityAccess, r.level);
    case 'routineControl':
      return cat([Sid.routineControl, r.control], be(r.routine, 2), r.data ?? []);
    case 'testerPresent':
      return Uint8Array.of(Sid.testerPresent, r.suppress ? 0x80 : 0x00);
    case 'requestDownload': {
      const a = r.addressBytes ?? 4;
      const s = r.sizeBytes ?? 4;
      return cat([Sid.requestDownload, r.dataFormat ?? 0x00, (s << 4) | a], be(r.address, a), be(r.size, s));
    }
    case 'transferData':
      return cat([Sid.transferData, r.counter & 0xff], r.data);
    case 'transferExit':
      return cat([Sid.transferExit], r.data ?? []);
  }
}

export interface Dtc {
  /** 3-byte DTC number (e.g. 0x012345). */
  code: number;
  status: number;
}

export type UdsResponse =
  | { ok: true; sid: number; data: Uint8Array }
  | { ok: false; sid: number; nrc: number; name: string; pending: boolean };

/** Positive (request SID + 0x40) or negative (0x7F, SID, NRC) response. */
export function decodeResponse(pdu: Uint8Array): UdsResponse {
  if (pdu.length === 0) throw new RangeError('empty response');
  if (pdu[0] === 0x7f) {
    if (pdu.length < 3) throw new RangeError('negative response needs 3 bytes');
    const nrc = pdu[2];
    return { ok: false, sid: pdu[1], nrc, name: Nrc[nrc] ?? `nrc 0x${nrc.toString(16)}`, pending: nrc === NRC_RESPONSE_PENDING };
  }
  return { ok: true, sid: pdu[0] - 0x40, data: pdu.slice(1) };
}

export function negativeResponse(sid: number, nrc: number): Uint8Array {
  return Uint8Array.of(0x7f, sid, nrc);
}

/** Is `pdu` the positive response to `request`? */
export function isPositiveFor(request: Uint8Array, pdu: Uint8Array): boolean {
  return pdu.length > 0 && pdu[0] === request[0] + 0x40;
}

/** 0x19 0x02 positive response: availability mask, then (DTC, status) records of 4 bytes. */
export function parseDtcs(pdu: Uint8Array): { availabilityMask: number; dtcs: Dtc[] } {
  if (pdu[0] !== 0x59 || pdu.length < 3) throw new RangeError('not a reportDTCByStatusMask response');
  const dtcs: Dtc[] = [];
  for (let at = 3; at + 4 <= pdu.length; at += 4) dtcs.push({ code: readBe(pdu, at, 3), status: pdu[at + 3] });
  return { availabilityMask: pdu[2], dtcs };
}

export function encodeDtcResponse(availabilityMask: number, dtcs: Dtc[]): Uint8Array {
  return cat([0x59, 0x02, availabilityMask], ...dtcs.map((d) => cat(be(d.code, 3), [d.status])));
}

const DTC_LETTERS = ['P', 'C', 'B', 'U'];
/** SAE J2012 form of a 3-byte DTC: 0x012345 → "P0123-45". */
export function dtcToString(code: number): string {
  const hi = (code >> 8) & 0xffff;
  const letter = DTC_LETTERS[hi >> 14];
  const rest = (hi & 0x3fff).toString(16).toUpperCase().padStart(4, '0');
  return `${letter}${rest}-${(code & 0xff).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** Parses "P0123-45", "P0123" (failure type 00), "0x012345" or "012345" into a 3-byte DTC. */
export function parseDtcCode(s: string): number | null {
  const t = s.trim().toUpperCase();
  const m = /^([PCBU])([0-3][0-9A-F]{3})(?:-([0-9A-F]{2}))?$/.exec(t);
  if (m) return ((DTC_LETTERS.indexOf(m[1]) << 22) | (Number.parseInt(m[2], 16) << 8) | Number.parseInt(m[3] ?? '00', 16)) >>> 0;
  const h = /^(?:0X)?([0-9A-F]{1,6})$/.exec(t);
  return h ? Number.parseInt(h[1], 16) : null;
}

/** DTC status bits (ISO 14229-1 D.2), for display. */
export const DtcStatusBits = [
  'testFailed',
  'testFailedThisOperationCycle',
  'pendingDTC',
  'confirmedDTC',
  'testNotCompletedSinceLastClear',
  'testFailedSinceLastClear',
  'testNotCompletedThisOperationCycle',
  'warningIndicatorRequested',
] as const;

export function dtcStatusNames(status: number): string[] {
  return DtcStatusBits.filter((_, i) => status & (1 << i));
}

/** 0x74 response to RequestDownload: maxNumberOfBlockLength (includes SID and counter bytes). */
export function parseMaxBlockLength(pdu: Uint8Array): number {
  if (pdu[0] !== 0x74 || pdu.length < 3) throw new RangeError('not a RequestDownload response');
  const n = pdu[1] >> 4;
  if (n < 1 || pdu.length < 2 + n) throw new RangeError('bad lengthFormatIdentifier');
  return readBe(pdu, 2, n);
}

/** 0x62 response: DID records, split by the lengths the caller knows (single DID: the rest). */
export function parseReadDid(pdu: Uint8Array): { did: number; data: Uint8Array } {
  if (pdu[0] !== 0x62 || pdu.length < 3) throw new RangeError('not a ReadDataByIdentifier response');
  return { did: readBe(pdu, 1, 2), data: pdu.slice(3) };
}

/** 0x67 odd response: the seed. An all-zero seed means the level is already unlocked. */
export function parseSeed(pdu: Uint8Array): Uint8Array {
  if (pdu[0] !== 0x67 || pdu.length < 3 || pdu[1] % 2 !== 1) throw new RangeError('not a seed response');
  return pdu.slice(2);
}

/** 0x71 response: routine id and status record. */
export function parseRoutine(pdu: Uint8Array): { control: number; routine: number; status: Uint8Array } {
  if (pdu[0] !== 0x71 || pdu.length < 4) throw new RangeError('not a RoutineControl response');
  return { control: pdu[1], routine: readBe(pdu, 2, 2), status: pdu.slice(4) };
}

export const hexToBytes = (s: string): Uint8Array => {
  const t = s.replace(/[\s:]/g, '').replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(t)) throw new RangeError('hex bytes expected');
  return Uint8Array.from(t.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? []);
};
export const bytesToHex = (b: Uint8Array, sep = ' '): string =>
  Array.from(b, (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(sep);
