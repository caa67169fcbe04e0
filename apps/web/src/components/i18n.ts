import { defineCatalogue } from '../i18n/catalogue.ts';

export default defineCatalogue({
  zh: {
    'common.comingSoon.text': '该功能即将上线，敬请期待。',
    'common.action.ok': '确定',
    'common.action.cancel': '取消',
    'common.action.close': '关闭',
    'common.action.backHome': '返回首页',
    'common.action.backToLogin': '返回登录',
    'common.loading': '加载中…',
    'common.language.label': '语言',
    'common.brand.default': 'Loggerhead',
  },
  en: {
    'common.comingSoon.text': 'This screen is coming soon.',
    'common.action.ok': 'OK',
    'common.action.cancel': 'Cancel',
    'common.action.close': 'Close',
    'common.action.backHome': 'Back to home',
    'common.action.backToLogin': 'Back to login',
    'common.loading': 'Loading…',
    'common.language.label': 'Language',
    'common.brand.default': 'Loggerhead',
  },
});
