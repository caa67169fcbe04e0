import type { WorkOrderDetail } from '@loggerhead/contract/schemas/workorder.ts';
import { Descriptions, Empty, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import type { Side } from '../api/workorder.api.ts';
import { OrderImages } from './order-images.tsx';
import { StatusTag } from './status-tag.tsx';

/** The order the capacity form asks in; anything else the request carries comes after. */
const CAPACITY_ORDER = [
  'things_num',
  'can_things_num',
  'ies_things_num',
  'database_storage_space',
  'single_data_export',
  'maximum_data_retention_days',
  'device_file_traffic_management',
  'max_batch_recall_size',
  'quick_delete_things_num',
  'special_storage',
  'quick_delete_things_list',
];
const rank = (k: string) => (CAPACITY_ORDER.includes(k) ? CAPACITY_ORDER.indexOf(k) : CAPACITY_ORDER.length);

/** Capacity request values, field by field, as the form named them. */
function CapacityValues({ values }: { values: Record<string, unknown> }) {
  const { t } = useTranslation();
  const entries = Object.entries(values)
    .filter(([k]) => k !== 'phone' && k !== 'description')
    .sort(([a], [b]) => rank(a) - rank(b));
  if (entries.length === 0) return <>--</>;
  const show = (k: string, v: unknown) => {
    if (k === 'special_storage') return t(`workorder.storage.${String(v)}`, { defaultValue: String(v) });
    if (k === 'quick_delete_things_list' && Array.isArray(v)) {
      return v.map((d) => (d as { third_things_id?: string }).third_things_id ?? '').join(', ') || '--';
    }
    return String(v);
  };
  return (
    <ul className="lh-workorder__capacity">
      {entries.map(([k, v]) => (
        <li key={k}>
          {t(`workorder.capacityField.${k}`, { defaultValue: k })}:{' '}
          <strong className={k === 'quick_delete_things_list' ? 'lh-mono' : undefined}>{show(k, v)}</strong>
        </li>
      ))}
    </ul>
  );
}

/** Everything about one order: its fields, images and history (every status change, creation first). */
export function OrderView({ order, side }: { order: WorkOrderDetail; side: Side }) {
  const { t } = useTranslation();
  return (
    <>
      <Descriptions bordered size="small" column={{ xs: 1, md: 2 }} data-testid="workorder-detail">
        <Descriptions.Item label={t('workorder.field.identifier')}>
          <span className="lh-mono">{order.identifier}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.status')}>
          <StatusTag status={order.status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.name')}>{order.name}</Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.feedbackType')}>{t(`workorder.type.${order.feedback_type}`)}</Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.belongFunction')}>
          {order.belong_function ? t(`workorder.function.${order.belong_function}`, { defaultValue: order.belong_function }) : '--'}
        </Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.phone')}>{order.phone || '--'}</Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.initiator')}>
          {order.initiator.name}
          {side === 'handler' && <Typography.Text type="secondary"> ({order.tenant_name})</Typography.Text>}
        </Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.handler')}>{order.handler?.name ?? '--'}</Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.createdAt')}>{formatDateTime(order.created_at)}</Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.updatedAt')}>{formatDateTime(order.updated_at)}</Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.description')} span={2}>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{order.description}</Typography.Paragraph>
        </Descriptions.Item>
        {order.capacity_request && (
          <Descriptions.Item label={t('workorder.field.capacityRequest')} span={2}>
            <CapacityValues values={order.capacity_request} />
            <Typography.Text type={order.applied ? 'success' : 'secondary'}>
              {order.applied ? t('workorder.capacity.applied') : t('workorder.capacity.notApplied')}
            </Typography.Text>
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('workorder.field.images')} span={2}>
          <OrderImages side={side} tenantId={order.tenant_id} images={order.images} />
        </Descriptions.Item>
        <Descriptions.Item label={t('workorder.field.remark')} span={2}>
          {order.remark || '--'}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('workorder.history.title')}
      </Typography.Title>
      {order.history.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Timeline
          data-testid="workorder-history"
          items={order.history.map((h) => ({
            key: `${h.at}-${h.to}`,
            color: h.to === 'refuse' ? 'red' : h.to === 'done' ? 'green' : 'blue',
            children: (
              <>
                <Typography.Text strong>
                  {h.from === h.to
                    ? t('workorder.history.replied')
                    : h.from
                      ? t('workorder.history.moved', { from: t(`workorder.status.${h.from}`), to: t(`workorder.status.${h.to}`) })
                      : t('workorder.history.created')}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {' '}
                  · {h.by.name} · {formatDateTime(h.at)}
                </Typography.Text>
                {h.remark && <div style={{ whiteSpace: 'pre-wrap' }}>{h.remark}</div>}
              </>
            ),
          }))}
        />
      )}
    </>
  );
}
