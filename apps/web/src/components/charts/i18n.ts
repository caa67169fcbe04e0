import { defineCatalogue } from '../../i18n/catalogue.ts';

/** Texts of the curve chart (the DBC data tab and the dashboard's line panels). */
export default defineCatalogue({
  zh: {
    'charts.curve.time': '时间',
    'charts.curve.empty': '请选择信号',
    'charts.curve.noData': '该时间范围内暂无数据',
  },
  en: {
    'charts.curve.time': 'Time',
    'charts.curve.empty': 'Choose signals',
    'charts.curve.noData': 'No data in this range yet',
  },
});
