import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';

/** Placeholder until this screen is built; the route and its title are final. */
export default function TestManagerPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('test.manager.title')} />;
}
