import { ToolOutlined } from '@ant-design/icons';
import { Card, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** What a screen shows until it is built: its real title and a clear "coming soon". */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" styles={{ body: { padding: 48 } }}>
      <Result
        icon={<ToolOutlined />}
        title={
          <Typography.Title level={3} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        }
        subTitle={t('common.comingSoon.text')}
      />
    </Card>
  );
}
