import { describe, expect, it } from 'vitest';
import {
  askedLang,
  resolveTextRefs,
  SERVER_TEXTS,
  serverText,
  serverTexts,
  TEXT_LANGS,
  textLang,
  textRef,
  UNIT_TEXTS,
  unitText,
} from './texts.ts';

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('server texts', () => {
  it('have every key in zh and en, with the same placeholders', () => {
    for (const [key, t] of Object.entries(SERVER_TEXTS)) {
      for (const lang of TEXT_LANGS) expect(t[lang].trim(), `${key} ${lang}`).not.toBe('');
      expect(placeholders(t.zh), key).toEqual(placeholders(t.en));
      // the Chinese text is Chinese (not a copy of the English one)
      expect(/[\u4e00-\u9fff]/.test(t.zh), `${key} zh`).toBe(true);
    }
  });

  it('fill placeholders and leave unknown ones visible', () => {
    expect(serverText('en', 'workorder.new.title', { identifier: 'WO1' })).toBe('New work order WO1');
    expect(serverText('zh', 'workorder.new.title', { identifier: 'WO1' })).toBe('新工单 WO1');
    expect(serverText('en', 'workorder.new.title')).toBe('New work order {{identifier}}');
    expect(serverTexts('code.purpose.login')).toEqual({ zh: '登录', en: 'login' });
  });

  it('pick en only when asked for, zh otherwise (the default)', () => {
    expect(textLang('en')).toBe('en');
    expect(textLang('en-GB,zh;q=0.5')).toBe('en');
    expect(textLang('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(textLang('fr-FR, en;q=0.5')).toBe('en');
    expect(textLang('fr')).toBe('zh');
    expect(textLang(null)).toBe('zh');
    // what was asked for, if anything (the inbox keeps its stored default otherwise)
    expect(askedLang('fr')).toBeNull();
    expect(askedLang('en-US')).toBe('en');
  });

  it("resolve seeded references in the reader's language, wherever they sit in a text", () => {
    const ref = textRef('seed.demo.truck-1');
    expect(ref).toBe('{{text:seed.demo.truck-1}}');
    expect(resolveTextRefs('en', ref)).toBe('Demo truck 1');
    expect(resolveTextRefs('zh', `告警：${ref} - ${textRef('seed.demo.van-3')}`)).toBe('告警：演示卡车 1 - 演示货车 3');
    // An unknown key, or plain words, stay as they are.
    expect(resolveTextRefs('en', '{{text:seed.nothing}} and Demo')).toBe('{{text:seed.nothing}} and Demo');
  });

  it('keep seeded texts writable inside any JSON string: no quote, backslash or line break', () => {
    for (const [key, t] of Object.entries(SERVER_TEXTS)) {
      if (!key.startsWith('seed.')) continue;
      for (const lang of TEXT_LANGS) expect(t[lang], `${key} ${lang}`).not.toMatch(/["\\\n\r]/);
    }
  });

  it('have every unit in zh and en, and leave other units as written', () => {
    for (const [unit, t] of Object.entries(UNIT_TEXTS))
      for (const lang of TEXT_LANGS) expect(t[lang].trim(), `${unit} ${lang}`).not.toBe('');
    expect(unitText('en', 'degC')).toBe('°C');
    expect(unitText('zh', 'degC')).toBe('℃');
    expect(unitText('zh', 'km/h')).toBe('km/h');
    expect(unitText('en', 'toString')).toBe('toString');
  });
});
