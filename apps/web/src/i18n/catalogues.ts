import { type Catalogue, mergeCatalogues } from './catalogue.ts';

/** Every `i18n.ts` under src, collected at build time. */
export const catalogueFiles: Record<string, Catalogue> = Object.fromEntries(
  Object.entries(import.meta.glob<{ default: Catalogue }>('/src/**/i18n.ts', { eager: true })).map(([file, mod]) => [file, mod.default]),
);

export const { resources, duplicates } = mergeCatalogues(catalogueFiles);
