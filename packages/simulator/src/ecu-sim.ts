import { IsoTpReceiver, IsoTpSender } from '@loggerhead/can/isotp/isotp.ts';
import { crc32 } from '@loggerhead/can/uds/crc32.ts';
import { ROUTINE_CHECK, ROUTINE_ERASE } from '@loggerhead/can/uds/flash.ts';
import { computeKey, type UnlockFile } from '@loggerhead/can/uds/seed-key.ts';
import { bytesToHex, type Dtc, encodeDtcResponse, hexToBytes, negativeResponse, Sid } from '@loggerhead/can/uds/uds.ts';
import type { DeviceAgent, OperationResult } from './commands.ts';

export interface EcuOptions {
  name: string;
  /** Physical request id the ECU listens to, and the id it answers on. */
  requestId: number;
  responseId: number;
  /** Functional (broadcast) request id, e.g. 0x7DF. */
  functionalId?: number;
  channel?: number;
  unlock: Pick<UnlockFile, 'level' | 'steps'>;
  dtcs?: Dtc[];
  dids?: Record<number, Uint8Array>;
  /** Response-pending (0x78) answers before the final one, for erase and check (slow flash work). */
  pendingOnSlowRoutines?: number;
  maxBlockLength?: number;
  /** Memory the ECU accepts a download into. */
  memory?: { address: number; size: number };
}

const NRC = {
  subFunction: 0x12,
  length: 0x13,
  conditions: 0x22,
  sequence: 0x24,
  range: 0x31,
  denied: 0x33,
  invalidKey: 0x35,
  uploadDownload: 0x70,
  wrongCounter: 0x73,
  pending: 0x78,
  serviceInSession: 0x7f,
} as const;

/**
 * A simulated ECU answering UDS: sessions, security access with the unlock algorithm, DIDs,
 * DTCs (read and clear), erase / check routines and a download that is verified by CRC-32
 * before the ECU accepts the new image. `handle` returns every PDU the ECU sends (response
 * pending first, then the final answer).
 */
export class SimulatedEcu {
  session = 1;
  unlocked = false;
  private seed: Uint8Array | null = null;
  dtcs: Dtc[];
  dids: Map<number, Uint8Array>;
  erased = false;
  private download: { address: number; size: number; data: Uint8Array; have: number; counter: number } | null = null;
  /** The image received by the last complete download, and whether the check routine accepted it. */
  received: Uint8Array | null = null;
  verified = false;
  /** The image running after a reset with a verified download. */
  flashed: Uint8Array | null = null;
  resets = 0;

  constructor(readonly opts: EcuOptions) {
    this.dtcs = [...(opts.dtcs ?? [])];
    this.dids = new Map(Object.entries(opts.dids ?? {}).map(([k, v]) => [Number(k), v]));
  }

  private pending(sid: number): Uint8Array[] {
    return Array.from({ length: this.opts.pendingOnSlowRoutines ?? 0 }, () => negativeResponse(sid, NRC.pending));
  }

  handle(req: Uint8Array): Uint8Array[] {
    const sid = req[0];
    const neg = (nrc: number) => [negativeResponse(sid, nrc)];
    const ok = (...data: number[] | [Uint8Array]) =>
      data[0] instanceof Uint8Array ? [Uint8Array.of(sid + 0x40, ...data[0])] : [Uint8Array.of(sid + 0x40, ...(data as number[]))];
    switch (sid) {
      case Sid.sessionControl: {
        const s = req[1] & 0x7f;
        if (req.length !== 2) return neg(NRC.length);
        if (s < 1 || s > 3) return neg(NRC.subFunction);
        if (s === 2 && !this.unlocked) return neg(NRC.conditions);
        this.session = s;
        if (s === 1) this.unlocked = false;
        return ok(s, 0x00, 0x32, 0x01, 0xf4);
      }
      case Sid.testerPresent:
        return req[1] & 0x80 ? [] : ok(0x00);
      case Sid.ecuReset: {
        this.resets++;
        if (this.verified && this.received) this.flashed = this.received;
        this.session = 1;
        this.unlocked = false;
        this.erased = false;
        this.download = null;
        return ok(req[1] & 0x7f);
      }
      case Sid.readDid: {
        if (req.length < 3 || (req.length - 1) % 2) return neg(NRC.length);
        const out: number[] = [];
        for (let i = 1; i < req.length; i += 2) {
          const did = (req[i] << 8) | req[i + 1];
          const v = this.dids.get(did);
          if (!v) return neg(NRC.range);
          out.push(req[i], req[i + 1], ...v);
        }
        return ok(...out);
      }
      case Sid.writeDid: {
        if (req.length < 4) return neg(NRC.length);
        if (!this.unlocked) return neg(NRC.denied);
        this.dids.set((req[1] << 8) | req[2], req.slice(3));
        return ok(req[1], req[2]);
      }
      case Sid.readDtc: {
        if (req[1] !== 0x02 || req.length !== 3) return neg(NRC.subFunction);
        return [
          encodeDtcResponse(
            0xff,
            this.dtcs.filter((d) => d.status & req[2]),
          ),
        ];
      }
      case Sid.clearDtc: {
        if (req.length !== 4) return neg(NRC.length);
        const group = (req[1] << 16) | (req[2] << 8) | req[3];
        this.dtcs = group === 0xffffff ? [] : this.dtcs.filter((d) => d.code !== group);
        return ok();
      }
      case Sid.securityAccess: {
        const sub = req[1];
        if (this.session === 1) return neg(NRC.serviceInSession);
        if (sub === this.opts.unlock.level) {
          if (this.unlocked) return ok(sub, 0, 0, 0, 0);
          this.seed = Uint8Array.from({ length: 4 }, () => 1 + Math.floor(Math.random() * 255));
          return ok(sub, ...this.seed);
        }
        if (sub === this.opts.unlock.level + 1) {
          if (!this.seed) return neg(NRC.sequence);
          const want = computeKey(this.seed, this.opts.unlock);
          this.seed = null;
          if (bytesToHex(want) !== bytesToHex(req.slice(2))) return neg(NRC.invalidKey);
          this.unlocked = true;
          return ok(sub);
        }
        return neg(NRC.subFunction);
      }
      case Sid.routineControl: {
        if (req.length < 4) return neg(NRC.length);
        const routine = (req[2] << 8) | req[3];
        if (req[1] !== 0x01) return neg(NRC.subFunction);
        if (routine === ROUTINE_ERASE) {
          if (this.session !== 2 || !this.unlocked) return neg(NRC.conditions);
          this.erased = true;
          this.received = null;
          this.verified = false;
          return [...this.pending(sid), Uint8Array.of(0x71, 0x01, req[2], req[3], 0x00)];
        }
        if (routine === ROUTINE_CHECK) {
          if (!this.received || req.length < 8) return neg(NRC.sequence);
          const want = ((req[4] << 24) | (req[5] << 16) | (req[6] << 8) | req[7]) >>> 0;
          this.verified = crc32(this.received) === want;
          return [...this.pending(sid), Uint8Array.of(0x71, 0x01, req[2], req[3], this.verified ? 0x00 : 0x01)];
        }
        return neg(NRC.range);
      }
      case Sid.requestDownload: {
        if (this.session !== 2 || !this.unlocked || !this.erased) return neg(NRC.conditions);
        const a = req[2] & 0x0f;
        const s = req[2] >> 4;
        if (req.length !== 3 + a + s) return neg(NRC.length);
        let address = 0;
        for (let i = 0; i < a; i++) address = address * 256 + req[3 + i];
        let size = 0;
        for (let i = 0; i < s; i++) size = size * 256 + req[3 + a + i];
        const mem = this.opts.memory ?? { address: 0, size: 16 * 1024 * 1024 };
        if (address < mem.address || address + size > mem.address + mem.size || size === 0) return neg(NRC.range);
        this.download = { address, size, data: new Uint8Array(size), have: 0, counter: 1 };
        const max = this.opts.maxBlockLength ?? 0x402;
        return ok(0x20, (max >> 8) & 0xff, max & 0xff);
      }
      case Sid.transferData: {
        const d = this.download;
        if (!d) return neg(NRC.sequence);
        if (req[1] !== d.counter) return neg(NRC.wrongCounter);
        const chunk = req.subarray(2);
        if (d.have + chunk.length > d.size) return neg(NRC.range);
        d.data.set(chunk, d.have);
        d.have += chunk.length;
        d.counter = (d.counter + 1) & 0xff;
        return ok(req[1]);
      }
      case Sid.transferExit: {
        const d = this.download;
        if (!d || d.have !== d.size) return neg(NRC.sequence);
        this.received = d.data;
        this.download = null;
        return ok();
      }
      default:
        return [negativeResponse(sid, 0x11)];
    }
  }
}

interface UdsRequestParams {
  channel?: number;
  tx_id: number;
  rx_id: number;
  fd?: boolean;
  pdu: string;
  fill_byte?: number;
  timeout_ms?: number;
  enhanced_timeout_ms?: number;
}

/**
 * The logger's side of `uds.request`: carries the request PDU to the ECU on the bus through
 * ISO-TP (frames, flow control), collects the answer (waiting through response pending) and
 * returns the final PDU. A logger without CAN FD refuses FD requests.
 */
export class UdsRelay {
  readonly ecus: SimulatedEcu[] = [];
  /** Frames that crossed the bus, for traces and tests. */
  readonly trace: { dir: 'tx' | 'rx'; id: number; data: string }[] = [];
  traceLimit = 10_000;

  constructor(readonly supportsFd = true) {}

  attach(agent: DeviceAgent) {
    agent.on('uds.request', (p) => this.request(p as unknown as UdsRequestParams));
  }

  private log(dir: 'tx' | 'rx', id: number, data: Uint8Array) {
    if (this.trace.length < this.traceLimit) this.trace.push({ dir, id, data: bytesToHex(data, '') });
  }

  /** Carries one PDU across the bus with ISO-TP; returns it reassembled on the far side. */
  private carry(pdu: Uint8Array, fromId: number, toId: number, opts: { txDl: number; fill: number }): Uint8Array {
    const s = new IsoTpSender(pdu, opts);
    const r = new IsoTpReceiver({ ...opts, blockSize: 8, stMinMs: 0 });
    let step = s.start();
    for (;;) {
      if (step.kind !== 'send') throw new Error(step.kind === 'error' ? step.reason : 'flow control wait');
      let fc: Uint8Array | null = null;
      for (const f of step.frames) {
        this.log('tx', fromId, f);
        const got = r.onFrame(f);
        if (got.kind === 'done') return got.payload;
        if (got.kind === 'error') throw new Error(got.reason);
        if (got.kind === 'flow') {
          this.log('rx', toId, got.frame);
          fc = got.frame;
        }
      }
      if (!fc) throw new Error('ISO-TP transfer stalled');
      step = s.onFlowControl(fc);
    }
  }

  async request(p: UdsRequestParams): Promise<OperationResult> {
    if (p.fd && !this.supportsFd) return { code: 400, message: 'uds.canfd-not-supported' };
    let pdu: Uint8Array;
    try {
      pdu = hexToBytes(p.pdu);
    } catch {
      return { code: 400, message: 'pdu must be hex bytes' };
    }
    if (pdu.length === 0) return { code: 400, message: 'empty pdu' };
    const opts = { txDl: p.fd ? 64 : 8, fill: p.fill_byte ?? 0xcc };
    const ecu = this.ecus.find(
      (e) => (e.opts.channel ?? 0) === (p.channel ?? 0) && (e.opts.requestId === p.tx_id || e.opts.functionalId === p.tx_id),
    );
    if (!ecu || (ecu.opts.responseId !== p.rx_id && ecu.opts.functionalId !== p.tx_id)) {
      return { code: 504, message: `no response from 0x${p.rx_id.toString(16)} within ${p.timeout_ms ?? 1000} ms` };
    }
    const atEcu = this.carry(pdu, p.tx_id, ecu.opts.responseId, opts);
    const answers = ecu.handle(atEcu);
    if (answers.length === 0) return { code: 0, payload: { pdu: '', pending: 0 } };
    let pending = 0;
    let final: Uint8Array = answers[answers.length - 1];
    for (const a of answers) {
      const back = this.carry(a, ecu.opts.responseId, p.tx_id, opts);
      if (back[0] === 0x7f && back[2] === 0x78) pending++;
      else final = back;
    }
    return { code: 0, payload: { pdu: bytesToHex(final), pending } };
  }
}
