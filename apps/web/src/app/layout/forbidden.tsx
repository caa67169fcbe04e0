import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** The 403 page: loaded when first shown, as Ant Design's `Result` brings its large illustrations. */
export default function Forbidden() {
  const { t } = useTranslation();
  return <Result status="403" title={t('app.forbidden.title')} subTitle={t('app.forbidden.text')} />;
}
