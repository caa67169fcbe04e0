import { runFlash } from '@loggerhead/can/uds/flash.ts';
import { computeKey } from '@loggerhead/can/uds/seed-key.ts';
import { bytesToHex, decodeResponse, hexToBytes } from '@loggerhead/can/uds/uds.ts';
import { describe, expect, it } from 'vitest';
import { SimulatedEcu, UdsRelay } from './ecu-sim.ts';

const unlock = {
  level: 1,
  steps: [
    { op: 'xor' as const, hex: 'A5A5A5A5' },
    { op: 'rotl' as const, bits: 5 },
  ],
};
const ecu = (extra = {}) =>
  new SimulatedEcu({ name: 'BMS', requestId: 0x7e0, responseId: 0x7e8, functionalId: 0x7df, unlock, pendingOnSlowRoutines: 2, ...extra });
const image = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7 + 3) & 0xff);
/** The ECU's final answer (response-pending answers skipped), as the logger would return it. */
const direct = (e: SimulatedEcu) => async (pdu: Uint8Array) => {
  const out = e.handle(pdu);
  return out[out.length - 1];
};

describe('simulated ECU', () => {
  it('is flashed by the standard sequence and verifies the image by CRC-32', async () => {
    const e = ecu();
    const steps: string[] = [];
    const r = await runFlash({ image, address: 0x8000, unlock }, direct(e), { onStep: (s) => void steps.push(s) });
    expect(r).toMatchObject({ ok: true, blocks: Math.ceil(5000 / 0x400) });
    expect(e.flashed).toEqual(image);
    expect(steps.filter((s, i) => s !== steps[i - 1])).toEqual([
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
    ]);
  });

  it('names the failing step: a wrong unlock algorithm fails at the key', async () => {
    const e = ecu();
    const r = await runFlash({ image, address: 0x8000, unlock: { level: 1, steps: [{ op: 'not' }] } }, direct(e));
    expect(r).toEqual({ ok: false, step: 'security-key', reason: 'negative response 0x35 invalidKey' });
    expect(e.flashed).toBeNull();
  });

  it('a corrupted block makes the check routine fail and the old image stays', async () => {
    const e = ecu();
    const r = await runFlash({ image, address: 0x8000, unlock }, async (pdu) => {
      if (pdu[0] === 0x36 && pdu[1] === 2) pdu[10] ^= 0xff;
      return direct(e)(pdu);
    });
    expect(r).toMatchObject({ ok: false, step: 'check' });
    expect(e.flashed).toBeNull();
  });

  it('stops when cancelled', async () => {
    let n = 0;
    const r = await runFlash({ image, address: 0x8000, unlock }, direct(ecu()), { cancelled: () => ++n > 7 });
    expect(r).toMatchObject({ ok: false, reason: 'cancelled', step: 'transfer' });
  });

  it('the logger relays requests through ISO-TP, on CAN and CAN FD, and waits out response pending', async () => {
    const relay = new UdsRelay(true);
    const e = ecu({ dids: { 61840: new TextEncoder().encode('WDB1234567890ABCD') } });
    relay.ecus.push(e);
    const vin = await relay.request({ tx_id: 0x7e0, rx_id: 0x7e8, pdu: '22 F1 90' });
    expect(vin).toEqual({ code: 0, payload: { pdu: `62 F1 90 ${bytesToHex(new TextEncoder().encode('WDB1234567890ABCD'))}`, pending: 0 } });
    // 20-byte answer on classic CAN: first frame, flow control, two consecutive frames.
    expect(relay.trace.slice(-4).map((f) => [f.dir, f.data.slice(0, 2)])).toEqual([
      ['tx', '10'],
      ['rx', '30'],
      ['tx', '21'],
      ['tx', '22'],
    ]);
    await relay.request({ tx_id: 0x7e0, rx_id: 0x7e8, pdu: '10 03' });
    const seed = await relay.request({ tx_id: 0x7e0, rx_id: 0x7e8, pdu: '27 01', fd: true });
    expect((seed.payload as { pdu: string }).pdu).toMatch(/^67 01/);
    const key = computeKey(hexToBytes((seed.payload as { pdu: string }).pdu).slice(2), unlock);
    expect(await relay.request({ tx_id: 0x7e0, rx_id: 0x7e8, pdu: `27 02 ${bytesToHex(key)}`, fd: true })).toMatchObject({
      payload: { pdu: '67 02' },
    });
    expect(
      decodeResponse(hexToBytes(((await relay.request({ tx_id: 0x7e0, rx_id: 0x7e8, pdu: '10 02' })).payload as { pdu: string }).pdu)),
    ).toMatchObject({ ok: true });
    // Erase answers 0x78 twice before the final answer; the logger returns the final one.
    expect(await relay.request({ tx_id: 0x7e0, rx_id: 0x7e8, pdu: '31 01 FF 00 44 00 00 80 00 00 00 00 10' })).toEqual({
      code: 0,
      payload: { pdu: '71 01 FF 00 00', pending: 2 },
    });
    expect(await relay.request({ tx_id: 0x7e1, rx_id: 0x7e9, pdu: '3E 00' })).toMatchObject({ code: 504 });
    expect(await new UdsRelay(false).request({ tx_id: 0x7e0, rx_id: 0x7e8, pdu: '3E 00', fd: true })).toEqual({
      code: 400,
      message: 'uds.canfd-not-supported',
    });
  });
});
