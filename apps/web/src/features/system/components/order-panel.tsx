import type { Order } from '@loggerhead/contract/schemas/orders.ts';
import { ORDER_STATES } from '@loggerhead/contract/schemas/orders.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatMoney } from '../../../lib/format.ts';
import { ordersAdminApi } from '../api/orders.api.ts';

type Action = { kind: 'confirm' | 'reject' | 'refund'; order: Order };
const KEY = ['system', 'orders'] as const;

/** System manager: every tenant's orders; a transfer's receipt is read, then confirmed or rejected; paid orders refunded. */
export function OrderPanel() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [state, setState] = useState<Order['state'] | undefined>('confirming');
  const [tenantName, setTenantName] = useState('');
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [action, setAction] = useState<Action | null>(null);
  const [receipt, setReceipt] = useState<{ url: string; mime: string } | null>(null);
  const [form] = Form.useForm<{ trade_no?: string; remark?: string }>();
  const orders = useQuery({
    queryKey: [...KEY, state, tenantName, page.current, page.size],
    queryFn: ({ signal }) =>
      ordersAdminApi.list({ current_page: page.current, page_size: page.size, state, tenant_name: tenantName.trim() || undefined }, signal),
    placeholderData: keepPreviousData,
  });
  const act = useMutation({
    mutationFn: ({ kind, order, v }: Action & { v: { trade_no?: string; remark?: string } }) =>
      kind === 'confirm'
        ? ordersAdminApi.confirm(order.id, v.trade_no ?? '', v.remark ?? '')
        : kind === 'reject'
          ? ordersAdminApi.reject(order.id, v.remark ?? '')
          : ordersAdminApi.refund(order.id, v.remark ?? ''),
    onSuccess: () => {
      setAction(null);
      void qc.invalidateQueries({ queryKey: KEY });
    },
  });
  const openReceipt = async (o: Order) => {
    const url = await ordersAdminApi.receiptUrl(o.id);
    setReceipt({ url, mime: (await fetch(url).then((r) => r.blob())).type });
  };

  return (
    <div data-testid="order-panel">
      <Space style={{ marginBottom: 12 }} wrap>
        <Select<Order['state'] | undefined>
          allowClear
          style={{ width: 200 }}
          value={state}
          placeholder={t('system.orders.allStates')}
          onChange={(v) => {
            setState(v);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          options={ORDER_STATES.map((s) => ({ value: s, label: t(`system.orders.state.${s}`) }))}
        />
        <Input.Search
          allowClear
          placeholder={t('system.orders.tenant')}
          onSearch={(v) => {
            setTenantName(v);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          style={{ width: 220 }}
        />
      </Space>
      <Table<Order>
        rowKey="id"
        size="middle"
        loading={orders.isFetching}
        dataSource={orders.data?.list ?? []}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: orders.data?.total ?? 0,
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          { title: t('system.orders.orderNo'), dataIndex: 'order_no', width: 200 },
          { title: t('system.orders.tenant'), dataIndex: 'tenant_name' },
          {
            title: t('system.orders.what'),
            render: (_v, o) => `${o.to_package_name ?? t('system.orders.capacity')} · ${t('system.orders.months', { n: o.duration })}`,
          },
          { title: t('system.orders.amount'), dataIndex: 'pay_amount', render: (n: number) => formatMoney(n) },
          {
            title: t('system.orders.stateCol'),
            dataIndex: 'state',
            render: (s: Order['state']) => <Tag>{t(`system.orders.state.${s}`)}</Tag>,
          },
          { title: t('system.orders.tradeNo'), dataIndex: 'trade_no', render: (v: string | null) => v ?? '--' },
          {
            title: t('system.orders.period'),
            render: (_v, o) => (o.start_time ? `${formatDate(o.start_time)} – ${formatDate(o.end_time)}` : '--'),
          },
          { title: t('system.orders.created'), dataIndex: 'created_at', render: (v: number) => formatDateTime(v) },
          {
            title: t('system.orders.actions'),
            render: (_v, o) => (
              <Space size={4} wrap>
                {o.has_receipt && (
                  <Button type="link" size="small" onClick={() => void openReceipt(o)} data-testid={`order-receipt-${o.order_no}`}>
                    {t('system.orders.receipt')}
                  </Button>
                )}
                {['unpaid', 'paying', 'confirming'].includes(o.state) && (
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setAction({ kind: 'confirm', order: o })}
                    data-testid={`order-confirm-${o.order_no}`}
                  >
                    {t('system.orders.confirm')}
                  </Button>
                )}
                {o.state === 'confirming' && (
                  <Button type="link" size="small" danger onClick={() => setAction({ kind: 'reject', order: o })}>
                    {t('system.orders.reject')}
                  </Button>
                )}
                {(o.state === 'paid' || o.state === 'active') && (
                  <Button type="link" size="small" danger onClick={() => setAction({ kind: 'refund', order: o })}>
                    {t('system.orders.refund')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={action !== null}
        title={action ? t(`system.orders.${action.kind}Title`, { no: action.order.order_no }) : ''}
        okText={t('common.action.ok')}
        cancelText={t('common.action.cancel')}
        confirmLoading={act.isPending}
        onOk={() => form.submit()}
        onCancel={() => setAction(null)}
        destroyOnHidden
      >
        {action && (
          <Form form={form} layout="vertical" preserve={false} onFinish={(v) => act.mutate({ ...action, v })}>
            <Typography.Paragraph>
              {action.order.tenant_name} · {formatMoney(action.order.pay_amount)}
            </Typography.Paragraph>
            {action.kind === 'confirm' && (
              <Form.Item name="trade_no" label={t('system.orders.tradeNo')} rules={[{ required: true, max: 64 }]}>
                <Input data-testid="order-trade-no" />
              </Form.Item>
            )}
            <Form.Item name="remark" label={t('system.orders.remark')} rules={[{ max: 500 }]}>
              <Input.TextArea rows={2} />
            </Form.Item>
          </Form>
        )}
      </Modal>
      <Modal
        open={receipt !== null}
        title={t('system.orders.receipt')}
        footer={null}
        width={760}
        onCancel={() => {
          if (receipt) URL.revokeObjectURL(receipt.url);
          setReceipt(null);
        }}
        destroyOnHidden
      >
        {receipt &&
          (receipt.mime === 'application/pdf' ? (
            <a href={receipt.url} target="_blank" rel="noreferrer">
              {t('system.orders.openPdf')}
            </a>
          ) : (
            <img src={receipt.url} alt={t('system.orders.receipt')} style={{ maxWidth: '100%' }} data-testid="order-receipt-image" />
          ))}
      </Modal>
    </div>
  );
}
