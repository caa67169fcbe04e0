import { describe, expect, it } from 'vitest';
import { areaOptions, COUNTRIES, DEFAULT_AREA, looksDomesticUnderForeignCode } from './countries.ts';

describe('area codes (spec §3)', () => {
  it('start with USA/Canada, China, Hong Kong, Macau, Taiwan, Japan, South Korea', () => {
    expect(
      areaOptions('en')
        .slice(0, 7)
        .map((o) => o.value),
    ).toEqual(['1', '86', '852', '853', '886', '81', '82']);
    expect(DEFAULT_AREA).toBe('86');
  });

  it('list each code once and every country in both languages', () => {
    const codes = areaOptions('zh').map((o) => o.value);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of COUNTRIES) {
      expect(c.zh && c.en, c.en).toBeTruthy();
      expect(c.areaCode).toMatch(/^\d{1,4}$/);
    }
    expect(areaOptions('en').find((o) => o.value === '7')?.label).toContain('Russia');
  });

  it('finds a country by either name or by its code', () => {
    const de = areaOptions('zh').find((o) => o.value === '49');
    expect(de?.search).toContain('germany');
    expect(de?.search).toContain('德国');
    expect(de?.search).toContain('+49');
  });

  it('warns about a mainland number entered under a foreign code only', () => {
    expect(looksDomesticUnderForeignCode('13812345678', '1')).toBe(true);
    expect(looksDomesticUnderForeignCode('13812345678', '86')).toBe(false);
    expect(looksDomesticUnderForeignCode('2025550123', '1')).toBe(false);
  });
});
