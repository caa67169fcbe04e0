/**
 * Message catalogues. Every folder that shows text keeps its own `i18n.ts`
 * (`export default defineCatalogue({ zh: {...}, en: {...} })`), so engineers never
 * edit a shared file to add a string. Keys are flat, `feature.component.purpose`,
 * and a catalogue under `features/<area>/` only holds keys starting with `<area>.`.
 */
export const LANGS = ['zh', 'en'] as const;
export type Lang = (typeof LANGS)[number];

export type Messages = Record<string, string>;
export interface Catalogue {
  zh: Messages;
  en: Messages;
}

/** The key set comes from `zh`; `en` must have exactly the same keys (checked by the compiler and by a test). */
export function defineCatalogue<K extends string>(c: { zh: Record<K, string>; en: NoInfer<Record<K, string>> }): Catalogue {
  return c;
}

export function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGS as readonly string[]).includes(v);
}

export interface MergeProblem {
  key: string;
  files: string[];
}

/** Merges catalogues into one flat resource per language; reports keys defined in more than one file. */
export function mergeCatalogues(files: Record<string, Catalogue>): { resources: Record<Lang, Messages>; duplicates: MergeProblem[] } {
  const resources: Record<Lang, Messages> = { zh: {}, en: {} };
  const owner = new Map<string, string[]>();
  for (const [file, cat] of Object.entries(files)) {
    for (const lang of LANGS) Object.assign(resources[lang], cat[lang]);
    for (const key of Object.keys(cat.zh)) owner.set(key, [...(owner.get(key) ?? []), file]);
  }
  const duplicates = [...owner].filter(([, f]) => f.length > 1).map(([key, f]) => ({ key, files: f }));
  return { resources, duplicates };
}
