import '../workorder.css';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../session/use-session.ts';
import { MoveButtons } from '../components/move-dialog.tsx';
import { OrderPageFrame } from '../components/order-page-frame.tsx';
import { FINAL_STATUSES } from '../components/workorder.logic.ts';

/**
 * One work order with its history (spec §2 WorkOrderDetail). The initiator's side can abandon
 * a pending order, reopen or confirm an answered one; a system manager goes on to handle it.
 */
export default function WorkOrderDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { role } = useSession();
  const side = role === 'system-manager' ? 'handler' : 'initiator';
  return (
    <OrderPageFrame
      title={t('workorder.detail.title')}
      side={side}
      actions={(order) =>
        side === 'handler' ? (
          !FINAL_STATUSES.includes(order.status) && (
            <Button type="primary" onClick={() => navigate(`/Container/HandleWorkOrder?id=${encodeURIComponent(order.id)}`)}>
              {t('workorder.action.handle')}
            </Button>
          )
        ) : (
          <MoveButtons order={order} side="initiator" />
        )
      }
    />
  );
}
