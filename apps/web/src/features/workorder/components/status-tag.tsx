import type { WorkOrderStatus } from '@loggerhead/contract/schemas/workorder.ts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from './workorder.logic.ts';

export function StatusTag({ status }: { status: WorkOrderStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} data-testid="workorder-status" data-status={status}>
      {t(`workorder.status.${status}`)}
    </Tag>
  );
}
