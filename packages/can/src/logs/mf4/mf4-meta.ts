/**
 * The metadata tree an MF4 bus log needs: ID → HD → DG list → CG list → CN tree (with
 * conversions). Attachments, events, channel arrays and sample reductions are not read.
 */
import { type Block, BlockReader, chain, HD_OFFSET, need, u64 } from './mf4-blocks.ts';
import { type Io, Mf4Error, type PageCache, read } from './mf4-io.ts';

/** `id_unfin_flags` bit: the last DT block's length was not written (it runs to the next block or the end). */
export const UNFIN_DT_LENGTH = 1 << 2;
/** `id_unfin_flags` bit: the last DL block of a list was not updated (blocks written after it are not listed). */
export const UNFIN_DL = 1 << 4;

export interface FileHeader {
  unfinalized: boolean;
  unfinFlags: number;
  version: number;
  /** hd_start_time_ns: whole µs, and the ns beyond them (0-999). */
  startUs: number;
  startNs: number;
  /** The start is local wall-clock time rather than UTC (hd_time_flags bit 0). */
  localTime: boolean;
}

/** A numeric conversion (raw → physical), or null for identity / text conversions. */
export type Conversion = ((x: number) => number) & { linear?: [number, number] };

export interface Channel {
  offset: number;
  name: string;
  /** cn_type: 0 fixed, 1 VLSD, 2 master, 3 virtual master, 4 sync, 5 MLSD, 6 virtual data. */
  type: number;
  sync: number;
  dataType: number;
  bitOffset: number;
  byteOffset: number;
  bitCount: number;
  conversion: Conversion | null;
  /** Members of a structure channel (cn_composition → CN). */
  members: Channel[];
  /** cn_data: for VLSD, the CG (same DG) or SD/DL/HL/DZ holding the values. */
  dataLink: number;
}

export interface ChannelGroup {
  offset: number;
  recordId: number;
  flags: number;
  dataBytes: number;
  invalBytes: number;
  acqName: string;
  sourceName: string;
  channels: Channel[];
}

export interface DataGroup {
  offset: number;
  recIdSize: number;
  dataLink: number;
  groups: ChannelGroup[];
}

export const CG_VLSD = 1;

export function* readFileHeader(cache: PageCache): Io<FileHeader> {
  const id = yield* read(0, 64);
  if (id.length < 64) throw new Mf4Error(0, 'not an MF4 file: shorter than its 64-byte ID block');
  const tag = String.fromCharCode(...id.subarray(0, 8));
  if (tag !== 'MDF     ' && tag !== 'UnFinMF ') throw new Mf4Error(0, 'not an MF4 file: no "MDF" or "UnFinMF" file identifier');
  const dv = new DataView(id.buffer, id.byteOffset, 64);
  const versionText = String.fromCharCode(...id.subarray(8, 16)).trim();
  const version = dv.getUint16(28, true) || Math.round(Number.parseFloat(versionText) * 100) || 0;
  if (version < 400 || version >= 500) throw new Mf4Error(8, `MDF version ${versionText || version} is not supported (only MDF 4.x)`);
  const reader = new BlockReader(cache);
  const hd = yield* reader.block(HD_OFFSET, 0, 'header', '##HD');
  const data = need(hd, 18, 'header');
  // Epoch ns are past 2^53: split exactly into whole µs and the ns beyond them.
  const ns = data.getBigUint64(0, true);
  return {
    unfinalized: tag === 'UnFinMF ',
    unfinFlags: dv.getUint16(60, true),
    version,
    startUs: Number(ns / 1000n),
    startNs: Number(ns % 1000n),
    localTime: (data.getUint8(12) & 1) !== 0,
  };
}

function conversionOf(b: Block): Conversion | null {
  const d = need(b, 24, 'conversion');
  const type = d.getUint8(0);
  const count = d.getUint16(6, true);
  if (24 + 8 * count > d.byteLength) throw new Mf4Error(b.offset, 'conversion: fewer values than it declares');
  const v = (i: number) => d.getFloat64(24 + 8 * i, true);
  switch (type) {
    case 1: {
      if (count < 2) return null;
      const p1 = v(0);
      const p2 = v(1);
      const f = ((x: number) => p1 + p2 * x) as Conversion;
      f.linear = [p1, p2];
      return f;
    }
    case 2: {
      if (count < 6) return null;
      const p = [v(0), v(1), v(2), v(3), v(4), v(5)];
      return ((x: number) => (p[0] * x * x + p[1] * x + p[2]) / (p[3] * x * x + p[4] * x + p[5])) as Conversion;
    }
    case 4:
    case 5: {
      const n = count >> 1;
      if (n === 0) return null;
      const keys = Float64Array.from({ length: n }, (_, i) => v(2 * i));
      const vals = Float64Array.from({ length: n }, (_, i) => v(2 * i + 1));
      const interpolate = type === 4;
      return ((x: number) => {
        if (x <= keys[0]) return vals[0];
        if (x >= keys[n - 1]) return vals[n - 1];
        let lo = 0;
        let hi = n - 1;
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (keys[mid] <= x) lo = mid;
          else hi = mid;
        }
        if (interpolate) return vals[lo] + ((vals[hi] - vals[lo]) * (x - keys[lo])) / (keys[hi] - keys[lo]);
        return x - keys[lo] <= keys[hi] - x ? vals[lo] : vals[hi];
      }) as Conversion;
    }
    case 6: {
      const n = Math.floor((count - 1) / 3);
      if (n <= 0) return null;
      const dflt = v(3 * n);
      const t = Float64Array.from({ length: 3 * n }, (_, i) => v(i));
      return ((x: number) => {
        for (let i = 0; i < n; i++) if (x >= t[3 * i] && x <= t[3 * i + 1]) return t[3 * i + 2];
        return dflt;
      }) as Conversion;
    }
    default:
      // Identity, formulas and the text conversions: the raw number is what we use.
      return null;
  }
}

const MAX_DEPTH = 8;

function* readChannels(reader: BlockReader, first: number, from: number, depth: number): Io<Channel[]> {
  if (depth > MAX_DEPTH) throw new Mf4Error(from, `channel structure nested deeper than ${MAX_DEPTH}`);
  return yield* chain(reader, first, from, 'channel', '##CN', function* (b) {
    const d = need(b, 24, 'channel');
    const links = b.links;
    if (links.length < 8) throw new Mf4Error(b.offset, 'channel: CN block with fewer than 8 links');
    const name = yield* reader.text(links[2], b.offset, 'channel name');
    let conversion: Conversion | null = null;
    if (links[4]) conversion = conversionOf(yield* reader.block(links[4], b.offset, 'conversion', '##CC'));
    let members: Channel[] = [];
    // cn_composition may also point to a CA (array) block, which bus logging does not use.
    if (links[1]) {
      const head = yield* reader.header(links[1], b.offset, 'channel composition');
      if (head.id === '##CN') members = yield* readChannels(reader, links[1], b.offset, depth + 1);
    }
    const channel: Channel = {
      offset: b.offset,
      name,
      type: d.getUint8(0),
      sync: d.getUint8(1),
      dataType: d.getUint8(2),
      bitOffset: d.getUint8(3),
      byteOffset: d.getUint32(4, true),
      bitCount: d.getUint32(8, true),
      conversion,
      members,
      dataLink: links[5],
    };
    return channel;
  });
}

function* readGroup(reader: BlockReader, b: Block): Io<ChannelGroup> {
  const d = need(b, 32, 'channel group');
  const recordId = u64(d, 0);
  if (recordId === null) throw new Mf4Error(b.offset, 'channel group: record id past 2^53');
  const flags = d.getUint16(16, true);
  const acqName = yield* reader.text(b.links[2] ?? 0, b.offset, 'acquisition name');
  let sourceName = '';
  if (b.links[3]) {
    const si = yield* reader.block(b.links[3], b.offset, 'source', '##SI');
    sourceName = yield* reader.text(si.links[0] ?? 0, si.offset, 'source name');
  }
  const channels = (flags & CG_VLSD) !== 0 ? [] : yield* readChannels(reader, b.links[1] ?? 0, b.offset, 0);
  return {
    offset: b.offset,
    recordId,
    flags,
    dataBytes: d.getUint32(24, true),
    invalBytes: d.getUint32(28, true),
    acqName,
    sourceName,
    channels,
  };
}

/** The data groups of the file (first link of the HD block). */
export function* readDataGroups(reader: BlockReader): Io<DataGroup[]> {
  const hd = yield* reader.block(HD_OFFSET, 0, 'header', '##HD');
  return yield* chain(reader, hd.links[0] ?? 0, HD_OFFSET, 'data group', '##DG', function* (b) {
    const d = need(b, 1, 'data group');
    const recIdSize = d.getUint8(0);
    if (![0, 1, 2, 4, 8].includes(recIdSize))
      throw new Mf4Error(b.offset, `data group: record id size ${recIdSize} is not 0, 1, 2, 4 or 8`);
    const groups = yield* chain(reader, b.links[1] ?? 0, b.offset, 'channel group', '##CG', (g) => readGroup(reader, g));
    return { offset: b.offset, recIdSize, dataLink: b.links[2] ?? 0, groups };
  });
}
