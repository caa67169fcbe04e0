import { describe, expect, it } from 'vitest';
import catalogue from '../i18n.ts';
import { DOC_TYPES, docTypeOf, HELP, PROTOCOL, QUICK_DELETE, RELEASES, type Section } from './doc-content.ts';

/** The help pages name their texts by key: each must exist in both languages. */
function keysOf(sections: Section[]): string[] {
  const keys: string[] = [];
  for (const s of sections) {
    keys.push(s.title);
    for (const b of s.blocks) {
      if ('p' in b) keys.push(b.p);
      if ('ul' in b) keys.push(...b.ul);
      if ('ol' in b) keys.push(...b.ol);
      if ('table' in b) keys.push(...b.table.head, ...b.table.rows.flat().filter((c) => c.startsWith('doc.')));
    }
  }
  return keys;
}

describe('help pages', () => {
  it('have every text in zh and en', () => {
    const keys = [
      ...keysOf([...HELP, ...PROTOCOL, ...QUICK_DELETE]),
      ...RELEASES.flatMap((r) => r.changes),
      ...DOC_TYPES.flatMap((d) => [`doc.nav.${d}`, `doc.lead.${d}`]),
    ];
    for (const lang of ['zh', 'en'] as const) {
      expect(
        keys.filter((k) => !catalogue[lang][k]),
        lang,
      ).toEqual([]);
    }
  });

  it('open the help for an unknown or missing type, and the named page otherwise', () => {
    expect(docTypeOf(null)).toBe('help');
    expect(docTypeOf('nonsense')).toBe('help');
    expect(docTypeOf('quickDelete')).toBe('quickDelete');
    expect(docTypeOf('updateLog')).toBe('updateLog');
  });
});
