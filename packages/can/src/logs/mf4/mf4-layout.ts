/**
 * ASAM MDF bus logging: a channel group of CAN events holds a time master channel and a
 * structure channel `CAN_DataFrame`, `CAN_RemoteFrame` or `CAN_ErrorFrame` whose members
 * (`BusChannel`, `ID`, `IDE`, `DLC`, `DataLength`, `DataBytes`, `Dir`, `EDL`, `BRS`, `ESI`)
 * carry the frame. Writers differ in how: bit fields in the record, virtual channels whose
 * conversion gives a constant (one group per channel and direction), fixed byte arrays or
 * variable-length data (VLSD) in another group or an SD block. This turns a group into a
 * layout the record decoder applies.
 */
import { Mf4Error } from './mf4-io.ts';
import type { Channel, ChannelGroup, Conversion } from './mf4-meta.ts';

/** Reads one value from a record (`rec[pos]` is its first byte after the record id). */
export type FieldReader = (rec: Uint8Array, pos: number, index: number) => number;

export type FrameKind = 'data' | 'remote' | 'error';

export interface BusLayout {
  kind: FrameKind;
  /** Time since the header's start, in µs (not rounded). */
  time: FieldReader;
  channel: FieldReader | null;
  /** Channel when the group has no BusChannel (from its source or acquisition name), 0-based. */
  defaultChannel: number;
  id: FieldReader | null;
  /** The ID channel is 32 bits with IDE in bit 31 (no separate IDE channel). */
  idHasIde: boolean;
  ide: FieldReader | null;
  dlc: FieldReader | null;
  dataLength: FieldReader | null;
  dir: FieldReader | null;
  edl: FieldReader | null;
  brs: FieldReader | null;
  esi: FieldReader | null;
  /** Payload: bytes in the record, or an offset into variable-length data elsewhere. */
  bytes: { fixed: true; byteOffset: number; length: number } | { fixed: false; offset: FieldReader; target: number } | null;
}

const KINDS: Record<string, FrameKind> = { CAN_DataFrame: 'data', CAN_RemoteFrame: 'remote', CAN_ErrorFrame: 'error' };

function uintLE(b: Uint8Array, p: number, n: number): number {
  if (n <= 4) {
    let v = 0;
    for (let i = n - 1; i >= 0; i--) v = v * 256 + b[p + i];
    return v;
  }
  let hi = 0;
  for (let i = n - 1; i >= 4; i--) hi = hi * 256 + b[p + i];
  return hi * 0x100000000 + (((b[p] | (b[p + 1] << 8) | (b[p + 2] << 16)) >>> 0) + b[p + 3] * 0x1000000);
}

function uintBE(b: Uint8Array, p: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[p + i];
  return v;
}

/** The raw value of a channel as a number (no conversion). */
function rawReader(cn: Channel, recordBytes: number, at: number): FieldReader {
  if (cn.type === 3 || cn.type === 6) return (_r, _p, index) => index;
  const { byteOffset, bitOffset, bitCount, dataType } = cn;
  const nbytes = Math.ceil((bitOffset + bitCount) / 8);
  if (bitCount === 0 || nbytes > 8 || byteOffset + nbytes > recordBytes)
    throw new Mf4Error(at, `channel "${cn.name}": ${bitCount} bits at byte ${byteOffset} do not fit a ${recordBytes}-byte record`);
  if (dataType === 4 || dataType === 5) {
    if (bitOffset !== 0 || (bitCount !== 32 && bitCount !== 64))
      throw new Mf4Error(at, `channel "${cn.name}": float of ${bitCount} bits is not supported`);
    const little = dataType === 4;
    const scratch = new DataView(new ArrayBuffer(8));
    return (r, p) => {
      for (let i = 0; i < nbytes; i++) scratch.setUint8(i, r[p + byteOffset + i]);
      return bitCount === 32 ? scratch.getFloat32(0, little) : scratch.getFloat64(0, little);
    };
  }
  if (dataType > 3) throw new Mf4Error(at, `channel "${cn.name}": data type ${dataType} is not a number`);
  const big = dataType === 1 || dataType === 3;
  const signed = dataType === 2 || dataType === 3;
  const read = big ? uintBE : uintLE;
  const scale = 2 ** bitOffset;
  const range = 2 ** bitCount;
  if (nbytes <= 4 && bitCount < 32) {
    const mask = range - 1;
    return (r, p) => {
      const v = (read(r, p + byteOffset, nbytes) >>> bitOffset) & mask;
      return signed && v >= range / 2 ? v - range : v;
    };
  }
  return (r, p) => {
    let v = Math.floor(read(r, p + byteOffset, nbytes) / scale) % range;
    if (signed && v >= range / 2) v -= range;
    return v;
  };
}

function withConversion(raw: FieldReader, c: Conversion | null): FieldReader {
  return c ? (r, p, i) => c(raw(r, p, i)) : raw;
}

/** Master channel value in µs since the start, as exact as the conversion allows. */
function timeReader(cn: Channel, recordBytes: number, at: number): FieldReader {
  const raw = rawReader(cn, recordBytes, at);
  const c = cn.conversion;
  if (!c) return (r, p, i) => raw(r, p, i) * 1e6;
  if (c.linear) {
    const [offset, factor] = c.linear;
    const base = offset * 1e6;
    const perUnit = factor * 1e6;
    const mul = Math.round(perUnit);
    // Integer ticks (µs, ms, ns…) multiplied or divided exactly rather than through seconds.
    if (mul !== 0 && Math.abs(perUnit - mul) < 1e-9 * Math.abs(mul)) return (r, p, i) => raw(r, p, i) * mul + base;
    const div = Math.round(1 / perUnit);
    if (div !== 0 && Math.abs(1 / perUnit - div) < 1e-9 * Math.abs(div)) return (r, p, i) => raw(r, p, i) / div + base;
  }
  return (r, p, i) => c(raw(r, p, i)) * 1e6;
}

/** Members by their name after the structure's (`CAN_DataFrame.ID` → `ID`), of the first frame kind found. */
function membersOf(group: ChannelGroup): { kind: FrameKind; fields: Map<string, Channel> } | null {
  let kind: FrameKind | null = null;
  const fields = new Map<string, Channel>();
  const visit = (list: Channel[], inherited: FrameKind | null) => {
    for (const cn of list) {
      const dot = cn.name.indexOf('.');
      const own = KINDS[dot < 0 ? cn.name : cn.name.slice(0, dot)] ?? null;
      const k = own ?? inherited;
      if (k && (dot >= 0 || !own)) {
        kind ??= k;
        const field = cn.name.slice(cn.name.lastIndexOf('.') + 1);
        if (k === kind && !fields.has(field)) fields.set(field, cn);
      } else if (own) kind ??= own;
      visit(cn.members, k);
    }
  };
  visit(group.channels, null);
  return kind ? { kind, fields } : null;
}

function findMaster(list: Channel[]): Channel | null {
  let any: Channel | null = null;
  for (const cn of list) {
    if (cn.type === 2 || cn.type === 3) {
      if (cn.sync === 1) return cn;
      any ??= cn;
    }
  }
  return any;
}

/** A 1-based bus number in a name like "CAN2" or "CAN2_Rx", 0-based. */
function channelFromName(...names: string[]): number {
  for (const n of names) {
    const m = /CAN\s*(\d+)/i.exec(n);
    if (m) return Math.max(0, Number(m[1]) - 1);
  }
  return 0;
}

/**
 * The bus layout of a channel group, or null when the group holds no CAN frames (signals,
 * LIN, …). Throws Mf4Error when it claims to hold frames but cannot be read.
 */
export function busLayout(group: ChannelGroup): BusLayout | null {
  const found = membersOf(group);
  if (!found) return null;
  const { kind, fields } = found;
  const at = group.offset;
  const size = group.dataBytes;
  const master = findMaster(group.channels);
  if (!master) throw new Mf4Error(at, `channel group "${group.acqName}": no time channel`);
  const num = (name: string): FieldReader | null => {
    const cn = fields.get(name);
    return cn ? withConversion(rawReader(cn, size, cn.offset), cn.conversion) : null;
  };
  const idCn = fields.get('ID');
  const ide = num('IDE');
  let bytes: BusLayout['bytes'] = null;
  const data = fields.get('DataBytes');
  if (data && kind !== 'remote') {
    if (data.type === 1) {
      if (!data.dataLink) throw new Mf4Error(data.offset, 'channel "DataBytes": variable-length data without a link to it');
      // The record holds the value's offset as an unsigned integer, whatever the value's type.
      bytes = { fixed: false, offset: rawReader({ ...data, dataType: 0 }, size, data.offset), target: data.dataLink };
    } else if (data.type === 0 && data.dataType === 10) {
      const length = Math.floor(data.bitCount / 8);
      if (data.byteOffset + length > size)
        throw new Mf4Error(data.offset, `channel "DataBytes": ${length} bytes do not fit a ${size}-byte record`);
      bytes = { fixed: true, byteOffset: data.byteOffset, length };
    }
  }
  return {
    kind,
    time: timeReader(master, size, master.offset),
    channel: num('BusChannel'),
    defaultChannel: channelFromName(group.sourceName, group.acqName),
    id: idCn ? withConversion(rawReader(idCn, size, idCn.offset), idCn.conversion) : null,
    idHasIde: !ide && !!idCn && idCn.bitCount === 32,
    ide,
    dlc: num('DLC'),
    dataLength: num('DataLength'),
    dir: num('Dir'),
    edl: num('EDL'),
    brs: num('BRS'),
    esi: num('ESI'),
    bytes,
  };
}
