import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('app.notFound.title')}
      subTitle={t('app.notFound.text')}
      extra={
        <Button type="primary" onClick={() => navigate('/Container/HomePage')}>
          {t('common.action.backHome')}
        </Button>
      }
    />
  );
}
