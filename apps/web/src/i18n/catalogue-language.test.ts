import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { catalogueChunk, catalogueLanguage } from '../../catalogue-language.ts';

/** The plugin's transform, with the parser the build gives it. */
function copy(code: string, id: string): string | null {
  const hook = catalogueLanguage().transform as (this: unknown, code: string, id: string) => { code: string } | null;
  const out = hook.call(
    {
      parse: (c: string) => parseAst(c),
      error: (m: string) => {
        throw new Error(m);
      },
    },
    code,
    id,
  );
  return out?.code ?? null;
}

/** Loads a module's code and returns its default export. */
async function evaluate(code: string): Promise<unknown> {
  return (await import(`data:text/javascript,${encodeURIComponent(code)}`)).default;
}

const source = `import { defineCatalogue } from '../../i18n/catalogue.ts';
export default defineCatalogue({
  zh: { 'car.title': '车辆', 'car.count': '{{n}} 辆' },
  en: { 'car.title': 'Vehicles', 'car.count': '{{n}} vehicles' },
});
`;

describe('one language per copy of a catalogue', () => {
  it('keeps the asked language and empties the other, with no import left', async () => {
    const zh = copy(source, '/src/features/car/i18n.ts?lang=zh') ?? '';
    const en = copy(source, '/src/features/car/i18n.ts?lang=en') ?? '';
    expect(zh).not.toMatch(/import/);
    expect(await evaluate(zh)).toEqual({ zh: { 'car.title': '车辆', 'car.count': '{{n}} 辆' }, en: {} });
    expect(await evaluate(en)).toEqual({ zh: {}, en: { 'car.title': 'Vehicles', 'car.count': '{{n}} vehicles' } });
  });

  it('leaves the whole catalogue (and every other module) alone', () => {
    expect(copy(source, '/src/features/car/i18n.ts')).toBeNull();
    expect(copy('export const a = 1;', '/src/features/car/car.api.ts')).toBeNull();
  });

  it('refuses a copy it cannot split, rather than shipping both languages', () => {
    expect(() => copy('export default { zh: {}, en: {} };', '/src/features/car/i18n.ts?lang=zh')).toThrow(/defineCatalogue/);
  });

  it('puts the copies of a language in one chunk', () => {
    expect(catalogueChunk('/app/src/features/car/i18n.ts?lang=zh')).toBe('messages-zh');
    expect(catalogueChunk('/app/src/features/dbc/i18n.ts?lang=en')).toBe('messages-en');
    expect(catalogueChunk('/app/src/features/car/i18n.ts')).toBeUndefined();
  });
});
