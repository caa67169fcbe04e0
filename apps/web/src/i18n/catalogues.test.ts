import { Nrc } from '@loggerhead/can/uds/uds.ts';
import { ErrorCodes } from '@loggerhead/contract/errors.ts';
import { MENU_KEYS } from '@loggerhead/contract/menus.ts';
import { describe, expect, it } from 'vitest';
import { LANGS } from './catalogue.ts';
import { catalogueFiles, duplicates, resources } from './catalogues.ts';

const sources = import.meta.glob<string>(['/src/**/*.ts', '/src/**/*.tsx', '!/src/**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** A Chinese character (CJK unified ideographs). */
const CJK = /[\u4e00-\u9fff]/;

describe('message catalogues', () => {
  const files = Object.entries(catalogueFiles);

  it('are found: the app, the error catalogue and the features', () => {
    const names = files.map(([f]) => f);
    expect(names).toContain('/src/app/i18n.ts');
    expect(names).toContain('/src/api/i18n.ts');
    expect(names).toContain('/src/features/auth/i18n.ts');
  });

  it.each(files)('%s has the same keys in zh and en and no empty text', (_file, cat) => {
    expect(Object.keys(cat.en).sort()).toEqual(Object.keys(cat.zh).sort());
    for (const lang of LANGS) {
      for (const [key, text] of Object.entries(cat[lang])) {
        expect(text.trim(), `${lang} ${key}`).not.toBe('');
      }
    }
  });

  it.each(files)('%s holds only keys of its own area (or error codes)', (file, cat) => {
    const area = /^\/src\/features\/([^/]+)\/i18n\.ts$/.exec(file)?.[1];
    if (!area) return;
    for (const key of Object.keys(cat.zh)) {
      expect(key.startsWith(`${area}.`) || key.startsWith('errors.'), key).toBe(true);
    }
  });

  it('never define a key twice', () => {
    expect(duplicates).toEqual([]);
  });

  it('translate every error code of the registry into zh and en, the zh text written in Chinese', () => {
    const codes = Object.keys(ErrorCodes);
    expect(codes.length).toBeGreaterThan(100);
    for (const lang of LANGS) {
      const missing = codes.filter((c) => !resources[lang][`errors.${c}`]?.trim());
      expect(missing, `${lang} lacks`).toEqual([]);
    }
    // A zh text without Chinese is the English fallback copied over, unless it is a term both
    // languages write alike (none today).
    const sameInBoth = new Set<string>([]);
    const notChinese = codes.filter((c) => !CJK.test(resources.zh[`errors.${c}`] ?? '') && !sameInBoth.has(c));
    expect(notChinese).toEqual([]);
  });

  it('hold no error text for a code the registry lacks (a renamed or dropped code leaves none behind)', () => {
    // The client's own: no answer, a request never sent, and statuses the server's handler may send as `http.{status}`.
    const client = new Set(['unknown', 'NO_RESPONSE', 'SETUP_ERROR', 'http.423', 'http.502', 'http.504']);
    const stray = Object.keys(resources.zh)
      .filter((k) => k.startsWith('errors.') && !k.startsWith('errors.nrc.'))
      .map((k) => k.slice('errors.'.length))
      .filter((c) => !(c in ErrorCodes) && !client.has(c));
    expect(stray).toEqual([]);
  });

  it("name every negative response code of an ECU in zh and en (the console shows it with 'uds.negative-response')", () => {
    for (const name of Object.values(Nrc)) {
      expect(resources.zh[`errors.nrc.${name}`], name).toMatch(CJK);
      expect(resources.en[`errors.nrc.${name}`], name).toMatch(/^[A-Z][\w ,-]+$/);
    }
  });

  it('name every menu entry', () => {
    for (const key of MENU_KEYS) expect(resources.zh[`app.menu.${key}`], key).toBeTruthy();
  });

  it('hold every literal key the code translates', () => {
    const used = new Set<string>();
    for (const text of Object.values(sources)) {
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((k) => !(k in resources.zh));
    expect(missing).toEqual([]);
  });
});
