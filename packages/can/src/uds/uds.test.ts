import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.ts';
import { computeKey, parseUnlockFile } from './seed-key.ts';
import {
  bytesToHex,
  decodeResponse,
  dtcStatusNames,
  dtcToString,
  encodeDtcResponse,
  encodeRequest,
  hexToBytes,
  parseDtcCode,
  parseDtcs,
  parseMaxBlockLength,
  parseReadDid,
  parseRoutine,
  parseSeed,
} from './uds.ts';

const hex = (b: Uint8Array) => bytesToHex(b);

describe('UDS requests', () => {
  it('encodes each service as ISO 14229-1 lays it out', () => {
    expect(hex(encodeRequest({ service: 'sessionControl', session: 0x03 }))).toBe('10 03');
    expect(hex(encodeRequest({ service: 'sessionControl', session: 0x01, suppress: true }))).toBe('10 81');
    expect(hex(encodeRequest({ service: 'ecuReset', type: 0x01 }))).toBe('11 01');
    expect(hex(encodeRequest({ service: 'readDid', dids: [0xf190, 0xf18c] }))).toBe('22 F1 90 F1 8C');
    expect(hex(encodeRequest({ service: 'writeDid', did: 0xf198, data: hexToBytes('01 02 03') }))).toBe('2E F1 98 01 02 03');
    expect(hex(encodeRequest({ service: 'readDtc', statusMask: 0xff }))).toBe('19 02 FF');
    expect(hex(encodeRequest({ service: 'clearDtc', group: 0xffffff }))).toBe('14 FF FF FF');
    expect(hex(encodeRequest({ service: 'securityAccess', level: 0x01 }))).toBe('27 01');
    expect(hex(encodeRequest({ service: 'securityAccess', level: 0x01, key: hexToBytes('DEADBEEF') }))).toBe('27 02 DE AD BE EF');
    expect(hex(encodeRequest({ service: 'routineControl', control: 1, routine: 0xff00, data: hexToBytes('44') }))).toBe('31 01 FF 00 44');
    expect(hex(encodeRequest({ service: 'testerPresent', suppress: true }))).toBe('3E 80');
    expect(hex(encodeRequest({ service: 'requestDownload', address: 0x08004000, size: 0x1000 }))).toBe('34 00 44 08 00 40 00 00 00 10 00');
    expect(hex(encodeRequest({ service: 'requestDownload', address: 0x4000, size: 0x100, addressBytes: 2, sizeBytes: 2 }))).toBe(
      '34 00 22 40 00 01 00',
    );
    expect(hex(encodeRequest({ service: 'transferData', counter: 0x100, data: hexToBytes('AA BB') }))).toBe('36 00 AA BB');
    expect(hex(encodeRequest({ service: 'transferExit' }))).toBe('37');
  });
});

describe('UDS responses', () => {
  it('positive and negative responses, response pending', () => {
    expect(decodeResponse(hexToBytes('50 03 00 32 01 F4'))).toEqual({ ok: true, sid: 0x10, data: hexToBytes('03 00 32 01 F4') });
    expect(decodeResponse(hexToBytes('7F 27 35'))).toEqual({ ok: false, sid: 0x27, nrc: 0x35, name: 'invalidKey', pending: false });
    expect(decodeResponse(hexToBytes('7F 31 78'))).toMatchObject({ pending: true, name: 'requestCorrectlyReceivedResponsePending' });
    expect(() => decodeResponse(hexToBytes('7F 31'))).toThrow();
  });

  it('DTC reports: records, SAE names, status bits', () => {
    const pdu = hexToBytes('59 02 FF 01 23 45 09 C1 00 00 2F');
    expect(parseDtcs(pdu)).toEqual({
      availabilityMask: 0xff,
      dtcs: [
        { code: 0x012345, status: 0x09 },
        { code: 0xc10000, status: 0x2f },
      ],
    });
    expect(encodeDtcResponse(0xff, parseDtcs(pdu).dtcs)).toEqual(pdu);
    expect(dtcToString(0x012345)).toBe('P0123-45');
    expect(dtcToString(0xc10000)).toBe('U0100-00');
    expect(dtcToString(0x4a1b02)).toBe('C0A1B-02');
    expect(parseDtcCode('U0100')).toBe(0xc10000);
    expect(parseDtcCode('p0123-45')).toBe(0x012345);
    expect(parseDtcCode('0x012345')).toBe(0x012345);
    expect(parseDtcCode('Q0000')).toBeNull();
    expect(dtcStatusNames(0x09)).toEqual(['testFailed', 'confirmedDTC']);
  });

  it('download, DID, seed and routine responses', () => {
    expect(parseMaxBlockLength(hexToBytes('74 20 04 02'))).toBe(0x402);
    expect(parseReadDid(hexToBytes('62 F1 90 57 30 4C'))).toEqual({ did: 0xf190, data: hexToBytes('57 30 4C') });
    expect(parseSeed(hexToBytes('67 01 11 22 33 44'))).toEqual(hexToBytes('11 22 33 44'));
    expect(() => parseSeed(hexToBytes('67 02'))).toThrow();
    expect(parseRoutine(hexToBytes('71 01 02 02 00'))).toEqual({ control: 1, routine: 0x0202, status: hexToBytes('00') });
  });
});

describe('unlock files (seed → key)', () => {
  it('applies xor, add, rotate, not and reverse to the seed, modulo its length', () => {
    const seed = hexToBytes('11 22 33 44');
    expect(hex(computeKey(seed, { steps: [{ op: 'xor', hex: 'A5A5A5A5' }] }))).toBe('B4 87 96 E1');
    expect(
      hex(
        computeKey(seed, {
          steps: [
            { op: 'xor', hex: 'A5A5A5A5' },
            { op: 'add', hex: '00000001' },
          ],
        }),
      ),
    ).toBe('B4 87 96 E2');
    expect(hex(computeKey(seed, { steps: [{ op: 'rotl', bits: 8 }] }))).toBe('22 33 44 11');
    expect(hex(computeKey(seed, { steps: [{ op: 'rotr', bits: 4 }] }))).toBe('41 12 23 34');
    expect(hex(computeKey(hexToBytes('FF FF FF FF'), { steps: [{ op: 'add', hex: '02' }] }))).toBe('02 02 02 01');
    expect(hex(computeKey(seed, { steps: [{ op: 'not' }, { op: 'reverse' }] }))).toBe('BB CC DD EE');
    expect(hex(computeKey(hexToBytes('00 03'), { steps: [{ op: 'mul', hex: '0005' }] }))).toBe('00 0F');
  });

  it('validates the file', () => {
    expect(parseUnlockFile({ format: 'loggerhead-unlock/1', level: 1, steps: [{ op: 'not' }] })).toMatchObject({ level: 1 });
    expect(parseUnlockFile({ format: 'x', level: 1, steps: [] })).toMatch(/format/);
    expect(parseUnlockFile({ format: 'loggerhead-unlock/1', level: 2, steps: [{ op: 'not' }] })).toMatch(/odd/);
    expect(parseUnlockFile({ format: 'loggerhead-unlock/1', level: 1, steps: [{ op: 'eval' }] })).toMatch(/unknown/);
    expect(parseUnlockFile({ format: 'loggerhead-unlock/1', level: 1, steps: [{ op: 'xor', hex: 'XYZ' }] })).toMatch(/hex/);
  });
});

describe('CRC-32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});
