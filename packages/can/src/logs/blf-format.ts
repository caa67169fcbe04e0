/**
 * Vector BLF layout. There is no public specification; offsets follow Toby Lorenz's
 * vector_blf library and python-can's reader/writer, which Vector's tools interoperate with.
 *
 * File:   144-byte header ("LOGG", statistics, start/stop as SYSTEMTIME), then objects.
 * Object: "LOBJ", header size u16, header version u16, object size u32, object type u32,
 *         then v1 (flags u32, client u16, object version u16, timestamp u64) or
 *         v2 (flags u32, timestamp status u8, reserved u8, object version u16, timestamp u64,
 *         original timestamp u64), then the body; `object size % 4` padding bytes follow.
 * LOG_CONTAINER objects hold a run of further objects, zlib-deflated or stored.
 */
import { microsToWallClock, wallClockToMicros } from './wall-clock.ts';

export const FILE_HEADER_SIZE = 144;
export const OBJ_BASE_SIZE = 16;
export const OBJ_HEADER_V1_SIZE = 32;
export const CONTAINER_HEADER_SIZE = 32;

export const OBJ = {
  CAN_MESSAGE: 1,
  CAN_ERROR: 2,
  LOG_CONTAINER: 10,
  CAN_ERROR_EXT: 73,
  CAN_MESSAGE2: 86,
  CAN_FD_MESSAGE: 100,
  CAN_FD_MESSAGE_64: 101,
  CAN_FD_ERROR_64: 104,
} as const;

export const COMPRESSION_NONE = 0;
export const COMPRESSION_ZLIB = 2;

/** Object header flags: timestamp unit. */
export const TIME_TEN_MICS = 1;
export const TIME_ONE_NANS = 2;

/** CAN_MESSAGE(2) / CAN_FD_MESSAGE flags byte. */
export const MSG_FLAG_TX = 0x01;
export const MSG_FLAG_RTR = 0x80;
/** CAN_FD_MESSAGE canFdFlags byte. */
export const FD_EDL = 0x1;
export const FD_BRS = 0x2;
export const FD_ESI = 0x4;
/** CAN_FD_MESSAGE_64 flags u32. */
export const FD64_RTR = 0x0010;
export const FD64_EDL = 0x1000;
export const FD64_BRS = 0x2000;
export const FD64_ESI = 0x4000;

/** CAN_FD_ERROR_64 extFlags u16. */
export const FD_ERR_ESI = 0x20;
export const FD_ERR_BRS = 0x40;
export const FD_ERR_EDL = 0x80;
/** CAN_ERROR_EXT flagsExt / CAN_FD_ERROR_64 errorCodeExt: bit 5 set = received, bits 12-13 = 2 RX, 3 TX. */
export const ERR_EXT_RX = 0x2020;
export const ERR_EXT_TX = 0x3000;

export const ID_EXT = 0x80000000;

/** 1990-01-01: python-can writes (and expects) an all-zero SYSTEMTIME for anything earlier. */
export const EARLIEST_SYSTEMTIME_US = 631152000 * 1e6;

/** "LOBJ" at `p`. */
export function isLobj(b: Uint8Array, p: number): boolean {
  return b[p] === 0x4c && b[p + 1] === 0x4f && b[p + 2] === 0x42 && b[p + 3] === 0x4a;
}

/** u64 as a number; exact below 2^53 (object times in ns: 104 days), rounded above. */
export function readU64(dv: DataView, p: number): number {
  return dv.getUint32(p, true) + dv.getUint32(p + 4, true) * 4294967296;
}

/** u64 below 2^53. */
export function writeU64(dv: DataView, p: number, v: number): void {
  dv.setUint32(p, v >>> 0, true);
  dv.setUint32(p + 4, Math.floor(v / 4294967296), true);
}

/** Object time in ns → µs, exact even past 2^53 ns (BigInt only on that rare path). */
export function readNanosAsMicros(dv: DataView, p: number): number {
  const hi = dv.getUint32(p + 4, true);
  if (hi < 0x200000) return Math.round((dv.getUint32(p, true) + hi * 4294967296) / 1000);
  const ns = dv.getBigUint64(p, true);
  return Number((ns + 500n) / 1000n);
}

/** µs → object time in ns, exact even past 2^53 ns. */
export function writeMicrosAsNanos(dv: DataView, p: number, us: number): void {
  if (us < 9007199254740) writeU64(dv, p, us * 1000);
  else dv.setBigUint64(p, BigInt(us) * 1000n, true);
}

/** SYSTEMTIME (year, month, weekday, day, hour, minute, second, ms; u16 each) → µs, or undefined when unset/invalid. */
export function readSystemTime(dv: DataView, p: number, utcOffsetMinutes = 0): number | undefined {
  const year = dv.getUint16(p, true);
  const month = dv.getUint16(p + 2, true);
  const day = dv.getUint16(p + 6, true);
  const hour = dv.getUint16(p + 8, true);
  const minute = dv.getUint16(p + 10, true);
  const second = dv.getUint16(p + 12, true);
  const ms = dv.getUint16(p + 14, true);
  if (year < 1601 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || ms > 999) {
    return undefined;
  }
  return wallClockToMicros({ year, month, day, hour, minute, second, micros: ms * 1000 }, utcOffsetMinutes);
}

export function writeSystemTime(dv: DataView, p: number, us: number | undefined, utcOffsetMinutes = 0): void {
  if (us === undefined || us < EARLIEST_SYSTEMTIME_US) {
    for (let i = 0; i < 16; i++) dv.setUint8(p + i, 0);
    return;
  }
  const w = microsToWallClock(us, utcOffsetMinutes);
  const fields = [w.year, w.month, w.weekday, w.day, w.hour, w.minute, w.second, Math.floor(w.micros / 1000)];
  for (let i = 0; i < 8; i++) dv.setUint16(p + i * 2, fields[i], true);
}
