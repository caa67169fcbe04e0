import type { OrderQuote } from '@loggerhead/contract/schemas/orders.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Descriptions, Empty, Form, Input, InputNumber, Modal, Radio, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { formatMoney } from '../../../lib/format.ts';
import { billingApi, billingKeys, type OrderBody } from '../api/billing.api.ts';
import { OrderContent } from './order-content.tsx';

interface Values {
  package_id?: string;
  duration: number;
  pattern: 1 | 2;
  coupon_code?: string;
}

/** The buy screen: a catalogue package, the months, when it starts, a coupon, and the price before ordering. */
export function BuyPackageDialog({
  tenantId,
  open,
  onClose,
  onCreated,
}: {
  tenantId: string;
  open: boolean;
  onClose: () => void;
  onCreated: (orderId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const packages = useQuery({ queryKey: billingKeys.packages(), queryFn: ({ signal }) => billingApi.packages(signal), enabled: open });
  const values = Form.useWatch([], form);
  const [quote, setQuote] = useState<OrderQuote | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);

  const body = (v: Partial<Values> | undefined): OrderBody | null =>
    v?.package_id && v.duration
      ? {
          type: 1,
          package_id: v.package_id,
          duration: v.duration,
          pattern: v.pattern ?? 1,
          ...(v.coupon_code?.trim() ? { coupon_code: v.coupon_code.trim() } : {}),
        }
      : null;

  // The price follows the choices (the server prices it: discounts and coupons are its to apply).
  const json = JSON.stringify(body(values));
  useEffect(() => {
    const b = JSON.parse(json) as OrderBody | null;
    if (!open || !b) return setQuote(null);
    let live = true;
    billingApi.quote(tenantId, b).then(
      (q) => {
        if (!live) return;
        setQuote(q);
        setQuoteError(null);
      },
      (e) => {
        if (!live) return;
        setQuote(null);
        setQuoteError(errorText(e, t, (k) => i18n.exists(k)));
      },
    );
    return () => {
      live = false;
    };
  }, [json, open, tenantId, t, i18n]);

  const create = useMutation({
    mutationFn: (v: Values) => billingApi.create(tenantId, body(v) as OrderBody),
    onSuccess: (order) => {
      void qc.invalidateQueries({ queryKey: billingKeys.all });
      void message.success(t('billing.buy.created'));
      onClose();
      onCreated(order.id);
    },
  });

  const list = packages.data ?? [];
  return (
    <Modal
      open={open}
      title={t('billing.buy.title')}
      okText={t('billing.buy.submit')}
      cancelText={t('common.action.cancel')}
      okButtonProps={{ disabled: !quote }}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={720}
    >
      {packages.isSuccess && !list.length ? (
        <Empty description={t('billing.buy.none')} />
      ) : (
        <Form<Values> form={form} layout="vertical" initialValues={{ duration: 12, pattern: 1 }} onFinish={(v) => create.mutate(v)}>
          <Form.Item name="package_id" label={t('billing.buy.package')} rules={[{ required: true }]}>
            <Radio.Group style={{ width: '100%' }}>
              <Space direction="vertical" style={{ width: '100%' }}>
                {list.map((p) => (
                  <Radio key={p.id} value={p.id} data-testid={`buy-package-${p.name}`}>
                    <Card size="small" style={{ width: 560 }}>
                      <Space>
                        <Typography.Text strong>{p.name}</Typography.Text>
                        <Tag>{t(`billing.buy.platform.${p.platform}`)}</Tag>
                        <Typography.Text>{t('billing.buy.perMonth', { price: formatMoney(p.month_price) })}</Typography.Text>
                      </Space>
                      <div>
                        <OrderContent content={p.contents} />
                      </div>
                      {p.description && <Typography.Text type="secondary">{p.description}</Typography.Text>}
                    </Card>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          <Space size="large" align="start">
            <Form.Item name="duration" label={t('billing.buy.duration')} rules={[{ required: true }]}>
              <InputNumber min={1} max={36} precision={0} />
            </Form.Item>
            <Form.Item name="pattern" label={t('billing.buy.pattern')}>
              <Radio.Group>
                <Radio value={1}>{t('billing.buy.pattern.1')}</Radio>
                <Radio value={2}>{t('billing.buy.pattern.2')}</Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="coupon_code" label={t('billing.buy.coupon')}>
              <Input maxLength={32} style={{ width: 140 }} data-testid="buy-coupon" />
            </Form.Item>
          </Space>
          {quoteError && <Alert type="warning" showIcon message={quoteError} />}
          {quote && (
            <Descriptions size="small" column={4} bordered data-testid="buy-quote">
              <Descriptions.Item label={t('billing.buy.list')}>{formatMoney(quote.list_amount)}</Descriptions.Item>
              <Descriptions.Item label={t('billing.buy.discount', { percent: quote.discount_percent ?? 100 })}>
                −{formatMoney(quote.discount_amount)}
              </Descriptions.Item>
              <Descriptions.Item label={t('billing.buy.couponOff')}>−{formatMoney(quote.coupon_amount)}</Descriptions.Item>
              <Descriptions.Item label={t('billing.buy.pay')}>
                <Typography.Text strong>{formatMoney(quote.pay_amount)}</Typography.Text>
              </Descriptions.Item>
            </Descriptions>
          )}
        </Form>
      )}
    </Modal>
  );
}
