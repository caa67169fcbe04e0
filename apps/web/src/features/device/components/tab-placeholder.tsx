import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A tab that is not built yet: its title and a clear "coming soon". */
export function TabPlaceholder({ title, text }: { title: string; text?: string }) {
  const { t } = useTranslation();
  return <Result icon={<ToolOutlined />} title={title} subTitle={text ?? t('device.placeholder.text')} />;
}
