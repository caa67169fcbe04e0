import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import {
  FEEDBACK_TYPES,
  type FeedbackType,
  WORK_ORDER_STATUSES,
  type WorkOrder,
  type WorkOrderStatus,
} from '@loggerhead/contract/schemas/workorder.ts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Input, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import type { Side } from '../api/workorder.api.ts';
import { workOrderListQuery } from '../api/workorder.queries.ts';
import { CreateOrderDialog } from '../components/create-order-dialog.tsx';
import { StatusTag } from '../components/status-tag.tsx';
import { FINAL_STATUSES } from '../components/workorder.logic.ts';

interface Filter {
  status?: WorkOrderStatus;
  feedback_type?: FeedbackType;
  name?: string;
  range?: [number, number];
}

export const detailPath = (id: string) => `/Container/WorkOrderDetail?id=${encodeURIComponent(id)}`;
export const handlePath = (id: string) => `/Container/HandleWorkOrder?id=${encodeURIComponent(id)}`;

/**
 * Work orders (spec §2 WorkOrderList). A tenant user sees its orders (a manager the whole
 * tenant's) and raises new ones; a system manager sees every tenant's and handles them.
 */
export default function WorkOrderListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tenantId, role } = useSession();
  const side: Side = role === 'system-manager' ? 'handler' : 'initiator';
  const [filter, setFilter] = useState<Filter>({});
  const [paging, setPaging] = useState<PageState>(firstPage());
  const [creating, setCreating] = useState(false);
  const q = {
    current_page: paging.page,
    page_size: paging.size,
    status: filter.status,
    feedback_type: filter.feedback_type,
    name: filter.name,
    start_time: filter.range ? String(filter.range[0]) : undefined,
    end_time: filter.range ? String(filter.range[1]) : undefined,
  };
  const list = useQuery({ ...workOrderListQuery(side, tenantId, q), enabled: role !== 'unknown' });
  const change = (patch: Partial<Filter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPaging((p) => firstPage(p.size));
  };
  // A system manager lands where there is something to do: handling, unless the order is closed.
  const open = (o: WorkOrder) => navigate(side === 'handler' && !FINAL_STATUSES.includes(o.status) ? handlePath(o.id) : detailPath(o.id));

  const columns: ChooserColumn<WorkOrder>[] = [
    { key: 'identifier', title: t('workorder.field.identifier'), render: (o) => <span className="lh-mono">{o.identifier}</span> },
    {
      key: 'name',
      title: t('workorder.field.name'),
      ellipsis: true,
      width: 220,
      render: (o) => <Typography.Link>{o.name}</Typography.Link>,
    },
    { key: 'feedback_type', title: t('workorder.field.feedbackType'), render: (o) => t(`workorder.type.${o.feedback_type}`) },
    {
      key: 'belong_function',
      title: t('workorder.field.belongFunction'),
      defaultHidden: true,
      render: (o) => (o.belong_function ? t(`workorder.function.${o.belong_function}`, { defaultValue: o.belong_function }) : '--'),
    },
    { key: 'status', title: t('workorder.field.status'), render: (o) => <StatusTag status={o.status} /> },
    ...(side === 'handler' ? [{ key: 'tenant_name', title: t('workorder.field.tenant'), render: (o: WorkOrder) => o.tenant_name }] : []),
    { key: 'initiator', title: t('workorder.field.initiator'), render: (o) => o.initiator.name },
    { key: 'handler', title: t('workorder.field.handler'), render: (o) => o.handler?.name ?? '--' },
    { key: 'created_at', title: t('workorder.field.createdAt'), render: (o) => formatDateTime(o.created_at) },
    { key: 'updated_at', title: t('workorder.field.updatedAt'), defaultHidden: true, render: (o) => formatDateTime(o.updated_at) },
    {
      key: 'actions',
      title: t('workorder.field.actions'),
      always: true,
      fixed: 'right',
      render: (o) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button type="link" size="small" onClick={() => navigate(detailPath(o.id))}>
            {t('workorder.action.details')}
          </Button>
          {side === 'handler' && (
            <Button type="link" size="small" onClick={() => navigate(handlePath(o.id))} data-testid="handle-order">
              {t('workorder.action.handle')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {side === 'handler' ? t('workorder.list.titleAll') : t('workorder.list.title')}
        </Typography.Title>
      }
      extra={
        side === 'initiator' &&
        mayCall(Routes.workorder.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="new-workorder">
            {t('workorder.list.new')}
          </Button>
        )
      }
    >
      <ColumnChooserTable<WorkOrder>
        configKey={`workorder.list.${side}`}
        testId="workorder-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(o) => o.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        onRowClick={open}
        toolbar={
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={t('workorder.list.search')}
              style={{ width: 220 }}
              onSearch={(v) => change({ name: v.trim() || undefined })}
            />
            <Select<WorkOrderStatus>
              allowClear
              placeholder={t('workorder.field.status')}
              style={{ width: 140 }}
              value={filter.status}
              onChange={(v) => change({ status: v })}
              options={WORK_ORDER_STATUSES.map((s) => ({ value: s, label: t(`workorder.status.${s}`) }))}
              data-testid="filter-status"
            />
            <Select<FeedbackType>
              allowClear
              placeholder={t('workorder.field.feedbackType')}
              style={{ width: 160 }}
              value={filter.feedback_type}
              onChange={(v) => change({ feedback_type: v })}
              options={FEEDBACK_TYPES.map((f) => ({ value: f, label: t(`workorder.type.${f}`) }))}
            />
            <DatePicker.RangePicker
              placeholder={[t('workorder.list.from'), t('workorder.list.to')]}
              onChange={(v: [Dayjs | null, Dayjs | null] | null) =>
                change({ range: v?.[0] && v[1] ? [v[0].startOf('day').valueOf(), v[1].endOf('day').valueOf()] : undefined })
              }
            />
          </Space>
        }
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
      {tenantId && side === 'initiator' && <CreateOrderDialog tenantId={tenantId} open={creating} onClose={() => setCreating(false)} />}
    </Card>
  );
}
