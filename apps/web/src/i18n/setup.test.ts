// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { changeLang, i18n, loadFeatureMessages } from './setup.ts';

describe('messages load by need', () => {
  it('has the shell and sign-in texts at once, a feature’s only once loaded, in the language shown', async () => {
    await changeLang('zh');
    // The login page's and the API's texts come with the first load.
    expect(i18n.t('auth.login.submit')).not.toBe('auth.login.submit');
    expect(i18n.t('car.manager.title')).toBe('car.manager.title');
    expect(i18n.hasResourceBundle('en', 'translation') && i18n.exists('car.manager.title', { lng: 'en' })).toBe(false);
    await loadFeatureMessages('zh');
    expect(i18n.t('car.manager.title')).toMatch(/[\u4e00-\u9fff]/);
    // Only Chinese was loaded; switching loads English before the switch.
    expect(i18n.exists('car.manager.title', { lng: 'en', fallbackLng: false })).toBe(false);
    await changeLang('en');
    expect(i18n.t('car.manager.title')).toMatch(/^[\x20-\x7e]+$/);
  });
});
