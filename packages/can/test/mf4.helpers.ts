/**
 * A minimal MF4 walker for tests, written from the ASAM MDF 4 block layouts independently of
 * the reader under test: block headers, the HD → DG → CG chain and the records of an unsorted
 * data group's single DT block.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CanFrame } from '../src/frame.ts';

/** The CANedge samples: not in this repository; MF4_DIR or the folder beside the checkout. */
export const MF4_DIR = process.env.MF4_DIR ?? resolve(fileURLToPath(import.meta.url), '../../../../../shared/data/mf4');
export const hasSamples = existsSync(resolve(MF4_DIR, 'canedge-b.MF4'));

export interface RawBlock {
  id: string;
  length: number;
  links: number[];
  /** Offset of the data section. */
  data: number;
}

export function dv(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

export function block(b: Uint8Array, at: number): RawBlock {
  const v = dv(b);
  const id = String.fromCharCode(...b.subarray(at, at + 4));
  const length = Number(v.getBigUint64(at + 8, true));
  const n = Number(v.getBigUint64(at + 16, true));
  const links = Array.from({ length: n }, (_, i) => Number(v.getBigUint64(at + 24 + 8 * i, true)));
  return { id, length, links, data: at + 24 + 8 * n };
}

export function text(b: Uint8Array, at: number): string {
  if (!at) return '';
  const t = block(b, at);
  const end = b.indexOf(0, t.data);
  return new TextDecoder().decode(b.subarray(t.data, end < 0 || end > at + t.length ? at + t.length : end));
}

export interface RawGroup {
  at: number;
  recordId: number;
  cycles: number;
  flags: number;
  dataBytes: number;
  acqName: string;
  channelNames: string[];
}

/** hd_start_time_ns, in µs. */
export function startUs(b: Uint8Array): number {
  const hd = block(b, 64);
  return Number(dv(b).getBigUint64(hd.data, true) / 1000n);
}

export function dataGroups(b: Uint8Array): { at: number; recIdSize: number; dataLink: number; groups: RawGroup[] }[] {
  const v = dv(b);
  const out = [];
  for (let dgAt = block(b, 64).links[0]; dgAt; ) {
    const dg = block(b, dgAt);
    const groups: RawGroup[] = [];
    for (let cgAt = dg.links[1]; cgAt; ) {
      const cg = block(b, cgAt);
      const channelNames: string[] = [];
      const walk = (cnAt: number) => {
        for (let c = cnAt; c; ) {
          const cn = block(b, c);
          channelNames.push(text(b, cn.links[2]));
          walk(cn.links[1]);
          c = cn.links[0];
        }
      };
      walk(cg.links[1]);
      groups.push({
        at: cgAt,
        recordId: Number(v.getBigUint64(cg.data, true)),
        cycles: Number(v.getBigUint64(cg.data + 8, true)),
        flags: v.getUint16(cg.data + 16, true),
        dataBytes: v.getUint32(cg.data + 24, true),
        acqName: text(b, cg.links[2]),
        channelNames,
      });
      cgAt = cg.links[0];
    }
    out.push({ at: dgAt, recIdSize: b[dg.data], dataLink: dg.links[2], groups });
    dgAt = dg.links[0];
  }
  return out;
}

/**
 * Records of an unsorted data group held in one DT block: (record id, offset of its first byte
 * after the id). An unfinalized file's DT block runs to the end of the file.
 */
export function records(b: Uint8Array, g: ReturnType<typeof dataGroups>[number]): { id: number; at: number }[] {
  const dt = block(b, g.dataLink);
  const unfinalized = String.fromCharCode(...b.subarray(0, 8)) === 'UnFinMF ';
  const end = unfinalized ? b.length : g.dataLink + dt.length;
  const byId = new Map(g.groups.map((x) => [x.recordId, x]));
  const out: { id: number; at: number }[] = [];
  for (let p = dt.data; p < end; ) {
    const id = b[p];
    const cg = byId.get(id);
    if (!cg) throw new Error(`record id ${id} at ${p}`);
    const size = cg.flags & 1 ? 4 + dv(b).getUint32(p + 1, true) : cg.dataBytes;
    out.push({ id, at: p + 1 });
    p += 1 + size;
  }
  return out;
}

/**
 * The CAN frames of canedge-b.MF4, group "CAN_DataFrame" (record id 1, 22 bytes), as its CN
 * blocks declare: Timestamp REAL64 at byte 0 in ns (× 1e-9 s); IDE bit 0 and ID bits 3-31 of the
 * UINT32 at 8; EDL bit 0 and DataLength bits 1-7 of byte 12; Dir bit 0, BRS bit 1, BusChannel
 * bits 2-3 (1-based) and DLC bits 4-7 of byte 13; DataBytes: UINT64 offset at 14 into the records
 * of the VLSD group (record id 2: UINT32 length, bytes), counted without their record ids.
 */
export function canedgeBFrames(b: Uint8Array): CanFrame[] {
  const v = dv(b);
  const [g] = dataGroups(b);
  const start = startUs(b);
  const payloads = new Map<number, Uint8Array>();
  let run = 0;
  const frames: { at: number; off: number }[] = [];
  for (const r of records(b, g)) {
    if (r.id === 2) {
      const n = v.getUint32(r.at, true);
      payloads.set(run, b.subarray(r.at + 4, r.at + 4 + n));
      run += 4 + n;
    } else if (r.id === 1) frames.push({ at: r.at, off: Number(v.getBigUint64(r.at + 14, true)) });
  }
  return frames.map(({ at, off }) => {
    const id32 = v.getUint32(at + 8, true);
    return {
      ts: start + Math.round(v.getFloat64(at, true) / 1000),
      channel: ((b[at + 13] >> 2) & 3) - 1,
      id: id32 >>> 3,
      ext: (id32 & 1) === 1,
      fd: (b[at + 12] & 1) === 1,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: (b[at + 13] & 1) === 1,
      data: (payloads.get(off) as Uint8Array).subarray(0, b[at + 12] >> 1),
    };
  });
}

/**
 * EEC1 (PGN 0xF004) and CCVS1 (PGN 0xFEF1) of canedge-j1939-a.MF4 as [µs, physical value], from
 * the records of its "CAN1_Rx_IDE" group (record id 66: Timestamp UINT48 µs at byte 0, 29-bit ID
 * at 6, DataBytes at 11), decoded by hand with the factors of css-j1939-demo.dbc: EngineSpeed bits
 * 24-39 × 0.125 rpm, WheelBasedVehicleSpeed bits 8-23 × 1/256 km/h.
 */
export function canedgeJ1939Signals(b: Uint8Array): { rpm: [number, number][]; speed: [number, number][] } {
  const v = dv(b);
  const [g] = dataGroups(b);
  const start = startUs(b);
  const rpm: [number, number][] = [];
  const speed: [number, number][] = [];
  for (const r of records(b, g)) {
    if (r.id !== 66) continue;
    const pgn = ((v.getUint32(r.at + 6, true) & 0x1fffffff) >> 8) & 0x3ffff;
    const us = start + v.getUint32(r.at, true) + v.getUint16(r.at + 4, true) * 2 ** 32;
    if (pgn === 0xf004) rpm.push([us, v.getUint16(r.at + 11 + 3, true) * 0.125]);
    if (pgn === 0xfef1) speed.push([us, v.getUint16(r.at + 11 + 1, true) / 256]);
  }
  return { rpm, speed };
}
