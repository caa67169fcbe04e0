import '../workorder.css';
import { Alert, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../session/use-session.ts';
import { MoveButtons } from '../components/move-dialog.tsx';
import { OrderPageFrame } from '../components/order-page-frame.tsx';

/**
 * Handling a work order (spec §2 HandleWorkOrder), for system managers: the moves open to
 * the handler side, each with a remark; the caller becomes the order's handler.
 */
export default function HandleWorkOrderPage() {
  const { t } = useTranslation();
  const { role, settled, displayName } = useSession();
  if (role !== 'system-manager') {
    return settled ? <Result status="403" title={t('workorder.handle.forbidden')} /> : null;
  }
  return (
    <OrderPageFrame
      title={t('workorder.handle.title')}
      side="handler"
      actions={(order) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {order.status === 'pending' && <Alert type="info" showIcon message={t('workorder.handle.takeHint', { name: displayName })} />}
          <Space>
            <Typography.Text strong>{t('workorder.field.handler')}:</Typography.Text>
            <Typography.Text>{order.handler?.name ?? t('workorder.handle.nobody')}</Typography.Text>
          </Space>
          <MoveButtons order={order} side="handler" />
        </Space>
      )}
    />
  );
}
