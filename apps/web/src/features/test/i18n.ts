import { defineCatalogue } from '../../i18n/catalogue.ts';

export default defineCatalogue({
  zh: {
    'test.manager.title': '测试管理',
  },
  en: {
    'test.manager.title': 'Test management',
  },
});
