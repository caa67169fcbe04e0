import type { Notice } from '@loggerhead/contract/schemas/notice.ts';
import { Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';

/** The system-upgrade notice (spec §1): maintenance window and change list, hideable once per version. */
export function UpgradeNoticeDialog({
  notice,
  onClose,
  onNeverShow,
}: {
  notice: Notice | null;
  onClose: () => void;
  onNeverShow: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={notice !== null}
      title={notice?.title}
      onCancel={onClose}
      footer={[
        <Button key="never" onClick={onNeverShow}>
          {t('common.upgrade.neverShow')}
        </Button>,
        <Button key="ok" type="primary" onClick={onClose}>
          {t('common.upgrade.ok')}
        </Button>,
      ]}
    >
      {notice && (
        <>
          {notice.version && (
            <Typography.Paragraph>
              {t('common.upgrade.version')}: {notice.version}
            </Typography.Paragraph>
          )}
          {(notice.startTime || notice.endTime) && (
            <Typography.Paragraph>
              {t('common.upgrade.window')}: {formatDateTime(notice.startTime, 'YYYY-MM-DD HH:mm')} –{' '}
              {formatDateTime(notice.endTime, 'YYYY-MM-DD HH:mm')}
            </Typography.Paragraph>
          )}
          {notice.content && <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{notice.content}</Typography.Paragraph>}
          {notice.changes.length > 0 && (
            <>
              <Typography.Text strong>{t('common.upgrade.changes')}</Typography.Text>
              <ul>
                {notice.changes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </Modal>
  );
}
