import { ShoppingCartOutlined } from '@ant-design/icons';
import type { Order } from '@loggerhead/contract/schemas/orders.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDate, formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useSession } from '../../../session/use-session.ts';
import { billingApi, billingKeys } from '../api/billing.api.ts';
import { BuyPackageDialog } from '../components/buy-package-dialog.tsx';
import { OrderContent } from '../components/order-content.tsx';
import { PayDialog } from '../components/pay-dialog.tsx';

export const STATE_COLOURS: Record<Order['state'], string> = {
  unpaid: 'orange',
  paying: 'gold',
  confirming: 'blue',
  paid: 'cyan',
  active: 'green',
  expired: 'default',
  cancelled: 'default',
  refunded: 'purple',
};
const PAYABLE = new Set<Order['state']>(['unpaid', 'paying', 'confirming']);

/** The tenant manager's orders: buy a package, pay by transfer with a receipt, cancel; `?buy=1` opens the buy screen. */
export default function OrdersPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const qc = useQueryClient();
  const { tenantId, role } = useSession();
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [buying, setBuying] = useState(params.get('buy') === '1');
  const [paying, setPaying] = useState<Order | null>(null);
  const manager = role === 'manager';
  const orders = useQuery({
    queryKey: billingKeys.orders(tenantId, page.current, page.size),
    queryFn: ({ signal }) => billingApi.list(tenantId as string, { current_page: page.current, page_size: page.size }, signal),
    enabled: Boolean(tenantId) && manager,
    placeholderData: keepPreviousData,
  });
  // `?pay=<id>` (after ordering from the capacity form) opens that order's payment.
  const payId = params.get('pay');
  useEffect(() => {
    const o = payId ? orders.data?.list.find((x) => x.id === payId) : undefined;
    if (o) {
      setPaying(o);
      setParams({}, { replace: true });
    }
  }, [payId, orders.data, setParams]);

  const cancel = useMutation({
    mutationFn: (id: string) => billingApi.cancel(tenantId as string, id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: billingKeys.all }),
  });
  const showReceipt = async (o: Order) => {
    const url = await billingApi.receiptUrl(tenantId as string, o.id);
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };

  if (!manager) return <Alert type="info" showIcon message={t('billing.orders.managerOnly')} />;
  return (
    <Card variant="borderless">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('billing.orders.title')}
        </Typography.Title>
        <Button type="primary" icon={<ShoppingCartOutlined />} onClick={() => setBuying(true)} data-testid="orders-buy">
          {t('billing.orders.buy')}
        </Button>
      </Space>
      <Table<Order>
        rowKey="id"
        size="middle"
        loading={orders.isFetching}
        dataSource={orders.data?.list ?? []}
        locale={{ emptyText: t('billing.orders.empty') }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: orders.data?.total ?? 0,
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          { title: t('billing.col.orderNo'), dataIndex: 'order_no', width: 200 },
          {
            title: t('billing.col.content'),
            render: (_v, o) => (
              <Space direction="vertical" size={0}>
                <span>
                  <Tag>{t(`billing.type.${o.type}`)}</Tag>
                  {o.to_package_name}
                </span>
                <OrderContent content={o.to_package_content} />
              </Space>
            ),
          },
          { title: t('billing.col.duration'), dataIndex: 'duration', width: 90, render: (n: number) => t('billing.months', { n }) },
          { title: t('billing.col.amount'), dataIndex: 'pay_amount', width: 120, render: (n: number) => formatMoney(n) },
          {
            title: t('billing.col.state'),
            dataIndex: 'state',
            width: 150,
            render: (s: Order['state'], o) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATE_COLOURS[s]} data-testid={`order-state-${o.order_no}`}>
                  {t(`billing.state.${s}`)}
                </Tag>
                {o.remark && <Typography.Text type="secondary">{o.remark}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: t('billing.col.period'),
            width: 200,
            render: (_v, o) => (o.start_time ? `${formatDate(o.start_time)} – ${formatDate(o.end_time)}` : '--'),
          },
          { title: t('billing.col.created'), dataIndex: 'created_at', width: 170, render: (v: number) => formatDateTime(v) },
          {
            title: t('billing.col.actions'),
            width: 200,
            render: (_v, o) => (
              <Space size={4} wrap>
                {PAYABLE.has(o.state) && (
                  <Button type="link" size="small" onClick={() => setPaying(o)} data-testid={`order-pay-${o.order_no}`}>
                    {t('billing.action.pay')}
                  </Button>
                )}
                {o.has_receipt && (
                  <Button type="link" size="small" onClick={() => void showReceipt(o)}>
                    {t('billing.action.receipt')}
                  </Button>
                )}
                {PAYABLE.has(o.state) && (
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() =>
                      modal.confirm({
                        title: t('billing.action.cancelConfirm'),
                        okText: t('common.action.ok'),
                        cancelText: t('common.action.cancel'),
                        onOk: () => cancel.mutateAsync(o.id),
                      })
                    }
                  >
                    {t('billing.action.cancel')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {tenantId && (
        <>
          <BuyPackageDialog
            tenantId={tenantId}
            open={buying}
            onClose={() => setBuying(false)}
            onCreated={(id) => setParams({ pay: id }, { replace: true })}
          />
          <PayDialog tenantId={tenantId} order={paying} onClose={() => setPaying(null)} />
        </>
      )}
    </Card>
  );
}
