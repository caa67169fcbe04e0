import { CloseOutlined, NotificationOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

export interface Notice {
  id: string;
  title: string;
  content?: string;
}

/**
 * The announcement strip under the header bar (spec §2: it adds 24px, header 74 instead of 50).
 * Renders nothing without a notice. Closing is for now; "do not show again" is for good.
 */
export function AnnouncementBar({
  notice,
  onClose,
  onNeverShow,
}: {
  notice: Notice | null;
  onClose: () => void;
  onNeverShow?: () => void;
}) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <div className="lh-announcement" role="status">
      <NotificationOutlined />
      <span className="lh-announcement__label">{t('common.announcement.label')}</span>
      <span className="lh-announcement__text" title={notice.content ?? notice.title}>
        {notice.title}
        {notice.content ? ` — ${notice.content}` : ''}
      </span>
      <Space size={4}>
        {onNeverShow && (
          <Button size="small" type="link" onClick={onNeverShow}>
            {t('common.announcement.neverShow')}
          </Button>
        )}
        <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t('common.announcement.close')} onClick={onClose} />
      </Space>
    </div>
  );
}
