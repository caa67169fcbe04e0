import { describe, expect, it } from 'vitest';
import { isPdu, normaliseBytes, parseAddress, udsPdu } from './uds-pdu.ts';

describe('UDS request text', () => {
  it('accepts hex bytes separated by spaces only', () => {
    expect(isPdu('10 03')).toBe(true);
    expect(isPdu('22 F1 90')).toBe(true);
    expect(isPdu('1003')).toBe(false);
    expect(isPdu('10  03')).toBe(false);
    expect(isPdu('1 03')).toBe(false);
    expect(isPdu('')).toBe(false);
  });
  it('normalises typed data to spaced upper-case bytes', () => {
    expect(normaliseBytes('0a0b 0c')).toBe('0A 0B 0C');
    expect(normaliseBytes('abc')).toBeNull();
    expect(normaliseBytes('')).toBe('');
  });
});

describe('addresses', () => {
  it('limits standard addresses to 7FF and extended to 1FFFFFFF', () => {
    expect(parseAddress('7E0', 'standard')).toBe(0x7e0);
    expect(parseAddress('800', 'standard')).toBeNull();
    expect(parseAddress('18DA10F1', 'extended')).toBe(0x18da10f1);
    expect(parseAddress('20000000', 'extended')).toBeNull();
    expect(parseAddress('xyz', 'extended')).toBeNull();
  });
});

describe('service requests', () => {
  it('builds the ISO 14229 requests', () => {
    expect(udsPdu.session(3)).toBe('10 03');
    expect(udsPdu.reset(1)).toBe('11 01');
    expect(udsPdu.readDid(0xf190)).toBe('22 F1 90');
    expect(udsPdu.writeDid(0xf190, 'AA BB')).toBe('2E F1 90 AA BB');
    expect(udsPdu.requestSeed(1)).toBe('27 01');
    expect(udsPdu.sendKey(1, '11 22')).toBe('27 02 11 22');
    expect(udsPdu.routine(1, 0xff00, '')).toBe('31 01 FF 00');
    expect(udsPdu.testerPresent()).toBe('3E 00');
    for (const p of [udsPdu.session(3), udsPdu.writeDid(1, 'AA'), udsPdu.routine(3, 0x202, '01')]) expect(isPdu(p)).toBe(true);
  });
});
