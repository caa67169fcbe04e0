import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLang, type Lang, mergeCatalogues } from './catalogue.ts';
import { coreCatalogues, featureMessages } from './messages.ts';

const LOCALE_KEY = 'locale';

/** Chinese is the default (spec §1); the user's choice is kept in localStorage. */
export function storedLang(): Lang {
  try {
    const v = localStorage.getItem(LOCALE_KEY);
    return isLang(v) ? v : 'zh';
  } catch {
    return 'zh';
  }
}

export function persistLang(lang: Lang): void {
  try {
    localStorage.setItem(LOCALE_KEY, lang);
  } catch {}
}

export const i18n = i18next.createInstance();

const core = mergeCatalogues(coreCatalogues).resources;
/** Languages whose feature messages are loaded or loading. */
const features = new Map<Lang, Promise<void>>();

/**
 * Loads the features' messages in `lang` (once). Pages other than the sign-in pages wait for them
 * (the route guard); a key missing meanwhile (a sign-in page showing a feature's text) loads them
 * too, and the page shows the text once they are in.
 */
export function loadFeatureMessages(lang: Lang): Promise<void> {
  let done = features.get(lang);
  if (!done) {
    done = featureMessages(lang).then((bundles) => {
      const all = Object.assign({}, ...bundles) as Record<string, string>;
      i18n.addResourceBundle(lang, 'translation', all, true, false);
    });
    done.catch(() => features.delete(lang));
    features.set(lang, done);
  }
  return done;
}

i18n.use(initReactI18next).init({
  resources: { zh: { translation: core.zh }, en: { translation: core.en } },
  lng: storedLang(),
  fallbackLng: 'zh',
  // Keys are flat strings like `car.manager.title`; dots and colons are not structure.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  // A feature's key asked for before its messages are in: load them (see loadFeatureMessages).
  saveMissing: true,
  missingKeyHandler: () => {
    void loadFeatureMessages(currentLang()).catch(() => {});
  },
  // Pages re-render when messages arrive.
  react: { bindI18nStore: 'added' },
});

export function currentLang(): Lang {
  return isLang(i18n.language) ? i18n.language : 'zh';
}

export async function changeLang(lang: Lang): Promise<void> {
  persistLang(lang);
  // A page already showing features' texts gets them in the new language before it switches.
  if (features.size) await loadFeatureMessages(lang);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}
