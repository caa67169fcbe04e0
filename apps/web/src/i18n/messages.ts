import type { Catalogue, Lang } from './catalogue.ts';

/**
 * Which message catalogues load when (docs/decisions/0147-messages-load-by-language.md).
 *
 * The shell's, the API's (error codes), the shared components' and the sign-in pages' catalogues
 * come with the first load, in both languages: every page needs them, /Login included. Each
 * feature's catalogue loads before the first page that is not a sign-in page, and only in the
 * language shown (the build's `catalogueLanguage` plugin leaves one language in each copy, and puts
 * a language's copies in one chunk). Tests and the dev server read the same files whole.
 */
export const coreCatalogues = import.meta.glob<Catalogue>(
  ['/src/app/**/i18n.ts', '/src/api/**/i18n.ts', '/src/components/**/i18n.ts', '/src/session/**/i18n.ts', '/src/features/auth/**/i18n.ts'],
  { eager: true, import: 'default' },
);

const later: Record<Lang, Record<string, () => Promise<Catalogue>>> = {
  zh: import.meta.glob<Catalogue>(['/src/features/**/i18n.ts', '!/src/features/auth/**'], { query: '?lang=zh', import: 'default' }),
  en: import.meta.glob<Catalogue>(['/src/features/**/i18n.ts', '!/src/features/auth/**'], { query: '?lang=en', import: 'default' }),
};

/** The features' messages in `lang`, once per language (a failed load is tried again next time). */
export function featureMessages(lang: Lang): Promise<Record<string, string>[]> {
  return Promise.all(Object.values(later[lang]).map((load) => load().then((c) => c[lang])));
}
