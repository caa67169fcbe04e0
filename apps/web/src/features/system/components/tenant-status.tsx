import { TENANT_STATUS } from '@loggerhead/contract/schemas/tenant.ts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = {
  [TENANT_STATUS.pending]: 'gold',
  [TENANT_STATUS.active]: 'green',
  [TENANT_STATUS.rejected]: 'red',
  [TENANT_STATUS.disabled]: 'default',
};
export const STATUS_NAMES: Record<number, string> = {
  [TENANT_STATUS.pending]: 'pending',
  [TENANT_STATUS.active]: 'active',
  [TENANT_STATUS.rejected]: 'rejected',
  [TENANT_STATUS.disabled]: 'disabled',
};

export function TenantStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[status]}>{t(`system.tenant.status.${STATUS_NAMES[status] ?? 'pending'}`)}</Tag>;
}

export function tenantTypeKey(type: number): string {
  return type === 1 ? 'system.tenant.type.merchant' : type === 2 ? 'system.tenant.type.owner' : 'system.tenant.type.standalone';
}
