import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLang, type Lang } from './catalogue.ts';
import { resources } from './catalogues.ts';

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

i18n.use(initReactI18next).init({
  resources: { zh: { translation: resources.zh }, en: { translation: resources.en } },
  lng: storedLang(),
  fallbackLng: 'zh',
  // Keys are flat strings like `car.manager.title`; dots and colons are not structure.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export function currentLang(): Lang {
  return isLang(i18n.language) ? i18n.language : 'zh';
}

export async function changeLang(lang: Lang): Promise<void> {
  persistLang(lang);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}
