/**
 * The standard ECU flashing sequence over UDS, with the transport injected (`request` sends a PDU
 * and resolves with the final response, response-pending already waited out), so the same code
 * runs in the server (through the logger) and in tests (against a simulated ECU in memory).
 *
 * extended session → security access (seed, key from the unlock file) → programming session →
 * erase routine → request download → transfer data (block sequence counter 1..255, 0, 1 …) →
 * transfer exit → check routine (CRC-32 of the image) → ECU reset.
 */
import { crc32 } from './crc32.ts';
import { computeKey, type UnlockFile } from './seed-key.ts';
import { decodeResponse, encodeRequest, parseMaxBlockLength, parseRoutine, parseSeed, RoutineControl, Session } from './uds.ts';

export const ROUTINE_ERASE = 0xff00;
export const ROUTINE_CHECK = 0x0202;

export const FLASH_STEPS = [
  'extended-session',
  'security-seed',
  'security-key',
  'programming-session',
  'erase',
  'request-download',
  'transfer',
  'transfer-exit',
  'check',
  'reset',
] as const;
export type FlashStep = (typeof FLASH_STEPS)[number];

export interface FlashPlan {
  image: Uint8Array;
  /** Memory address the image goes to. */
  address: number;
  unlock: Pick<UnlockFile, 'level' | 'steps'>;
  /** Upper bound for a TransferData block (the ECU's maxNumberOfBlockLength wins when smaller). */
  maxBlock?: number;
}

export type FlashResult = { ok: true; blocks: number; crc: number } | { ok: false; step: FlashStep; reason: string };

export interface FlashHooks {
  /** Called at each step with the overall progress 0-100. */
  onStep?: (step: FlashStep, progress: number) => void | Promise<void>;
  /** Checked before each request: true stops the sequence (reported as cancelled at that step). */
  cancelled?: () => boolean;
}

class StepError extends Error {
  constructor(
    readonly step: FlashStep,
    reason: string,
  ) {
    super(reason);
  }
}

const be32 = (v: number) => Uint8Array.of((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);

export async function runFlash(
  plan: FlashPlan,
  request: (pdu: Uint8Array, step: FlashStep) => Promise<Uint8Array>,
  hooks: FlashHooks = {},
): Promise<FlashResult> {
  const send = async (step: FlashStep, pdu: Uint8Array): Promise<Uint8Array> => {
    if (hooks.cancelled?.()) throw new StepError(step, 'cancelled');
    let res: Uint8Array;
    try {
      res = await request(pdu, step);
    } catch (e) {
      throw new StepError(step, (e as Error)?.message ?? String(e));
    }
    const r = decodeResponse(res);
    if (!r.ok) throw new StepError(step, `negative response 0x${r.nrc.toString(16).padStart(2, '0')} ${r.name}`);
    if (r.sid !== pdu[0]) throw new StepError(step, `response to service 0x${r.sid.toString(16)} instead of 0x${pdu[0].toString(16)}`);
    return res;
  };
  const at = async (step: FlashStep, progress: number) => hooks.onStep?.(step, Math.round(progress));
  const crc = crc32(plan.image);
  try {
    await at('extended-session', 0);
    await send('extended-session', encodeRequest({ service: 'sessionControl', session: Session.extended }));
    await at('security-seed', 2);
    const seed = parseSeed(await send('security-seed', encodeRequest({ service: 'securityAccess', level: plan.unlock.level })));
    if (seed.some((b) => b !== 0)) {
      await at('security-key', 4);
      const key = computeKey(seed, plan.unlock);
      await send('security-key', encodeRequest({ service: 'securityAccess', level: plan.unlock.level, key }));
    }
    await at('programming-session', 5);
    await send('programming-session', encodeRequest({ service: 'sessionControl', session: Session.programming }));
    await at('erase', 6);
    const eraseArgs = new Uint8Array([0x44, ...be32(plan.address), ...be32(plan.image.length)]);
    await send(
      'erase',
      encodeRequest({ service: 'routineControl', control: RoutineControl.start, routine: ROUTINE_ERASE, data: eraseArgs }),
    );
    await at('request-download', 8);
    const rd = await send(
      'request-download',
      encodeRequest({ service: 'requestDownload', address: plan.address, size: plan.image.length }),
    );
    // maxNumberOfBlockLength counts the SID and the counter byte.
    const block = Math.max(1, Math.min(parseMaxBlockLength(rd), plan.maxBlock ?? 4095) - 2);
    let counter = 1;
    let blocks = 0;
    for (let off = 0; off < plan.image.length; off += block) {
      await at('transfer', 10 + (80 * off) / plan.image.length);
      const data = plan.image.subarray(off, Math.min(plan.image.length, off + block));
      await send('transfer', encodeRequest({ service: 'transferData', counter, data }));
      counter = (counter + 1) & 0xff;
      blocks++;
    }
    await at('transfer-exit', 90);
    await send('transfer-exit', encodeRequest({ service: 'transferExit' }));
    await at('check', 93);
    const check = parseRoutine(
      await send(
        'check',
        encodeRequest({ service: 'routineControl', control: RoutineControl.start, routine: ROUTINE_CHECK, data: be32(crc) }),
      ),
    );
    if (check.status[0] !== 0) throw new StepError('check', `the ECU reports a checksum mismatch (status ${check.status[0]})`);
    await at('reset', 97);
    await send('reset', encodeRequest({ service: 'ecuReset', type: 0x01 }));
    await at('reset', 100);
    return { ok: true, blocks, crc };
  } catch (e) {
    if (e instanceof StepError) return { ok: false, step: e.step, reason: e.message };
    return { ok: false, step: 'transfer', reason: (e as Error)?.message ?? String(e) };
  }
}
