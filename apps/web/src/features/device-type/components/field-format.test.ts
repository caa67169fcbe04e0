import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { type FieldFormat, formatFieldValue } from './field-format.ts';

const f = (display_format: FieldFormat['display_format'], over: Partial<FieldFormat> = {}): FieldFormat => ({
  display_format,
  accuracy: 2,
  time_format: 'YYYY-MM-DD HH:mm:ss',
  time_unit: 'ms',
  is_array: false,
  ...over,
});

describe('device type field display formats', () => {
  it('decimal: whole numbers from numbers and 0x text, fractions kept', () => {
    expect(formatFieldValue(255, f('decimal'))).toBe('255');
    expect(formatFieldValue('0x1F', f('decimal'))).toBe('31');
    expect(formatFieldValue('-42', f('decimal'))).toBe('-42');
    expect(formatFieldValue(3.5, f('decimal'))).toBe('3.5');
  });

  it('hex: 0x prefix, upper case, sign kept', () => {
    expect(formatFieldValue(255, f('hex'))).toBe('0xFF');
    expect(formatFieldValue(0x18daf110, f('hex'))).toBe('0x18DAF110');
    expect(formatFieldValue(-16, f('hex'))).toBe('-0x10');
    expect(formatFieldValue('not a number', f('hex'))).toBe('not a number');
  });

  it('spaced bytes from a number, a byte array or hex text', () => {
    expect(formatFieldValue(0x0a1b2c, f('hex_bytes'))).toBe('0A 1B 2C');
    expect(formatFieldValue([1, 2, 255], f('hex_bytes', { is_array: true }))).toBe('01 02 FF');
    expect(formatFieldValue('a1b2c', f('hex_bytes'))).toBe('0A 1B 2C');
    expect(formatFieldValue(0, f('hex_bytes'))).toBe('00');
  });

  it('original long: every digit, never an exponent', () => {
    expect(formatFieldValue(1e21, f('original_long'))).toBe('1000000000000000000000');
    expect(formatFieldValue('12345678901234567890', f('original_long'))).toBe('12345678901234567890');
  });

  it('time: epoch milliseconds or seconds in the chosen pattern', () => {
    const ms = new Date(2024, 4, 1, 8, 30, 15).getTime();
    expect(formatFieldValue(ms, f('time'))).toBe('2024-05-01 08:30:15');
    expect(formatFieldValue(ms / 1000, f('time', { time_unit: 's', time_format: 'HH:mm' }))).toBe('08:30');
    expect(formatFieldValue(String(ms), f('time'))).toBe(dayjs(ms).format('YYYY-MM-DD HH:mm:ss'));
  });

  it('accuracy: fixed digits after the point', () => {
    expect(formatFieldValue(12.34567, f('accuracy', { accuracy: 3 }))).toBe('12.346');
    expect(formatFieldValue('2', f('accuracy', { accuracy: 1 }))).toBe('2.0');
    expect(formatFieldValue(12.5, f('accuracy', { accuracy: 0 }))).toBe('13');
  });

  it('original string: as it came, objects as JSON', () => {
    expect(formatFieldValue('0x01', f('original_string'))).toBe('0x01');
    expect(formatFieldValue({ a: 1 }, f('original_string'))).toBe('{"a":1}');
    expect(formatFieldValue(true, f('original_string'))).toBe('true');
  });

  it('hex string to hex and to ASCII', () => {
    expect(formatFieldValue('4c6f67', f('hexstr_to_hex'))).toBe('0x4C6F67');
    expect(formatFieldValue('4c 6f 67', f('hexstr_to_ascii'))).toBe('Log');
    expect(formatFieldValue('48690007', f('hexstr_to_ascii'))).toBe('Hi..');
    expect(formatFieldValue('zz', f('hexstr_to_ascii'))).toBe('zz');
  });

  it('formats each element of an array field, and shows empty values as --', () => {
    expect(formatFieldValue([10, 255], f('hex', { is_array: true }))).toBe('[0xA, 0xFF]');
    expect(formatFieldValue([1.234, 2], f('accuracy', { is_array: true, accuracy: 1 }))).toBe('[1.2, 2.0]');
    expect(formatFieldValue(null, f('decimal'))).toBe('--');
    expect(formatFieldValue('', f('hex'))).toBe('--');
  });
});
