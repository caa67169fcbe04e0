import { TPS_MAX_INTERVAL_S, TPS_MAX_THINGS, type TpsRequest, type TpsResponse } from '@loggerhead/contract/schemas/billing.ts';
import { useMutation } from '@tanstack/react-query';
import { Button, Descriptions, Form, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { capacityApi } from '../api/capacity.api.ts';

const MSG_SIZE_MAX = 268_435_455;

/**
 * The TPS estimator (spec §2 widget, §5 rules, docs/tps.md): devices, seconds between two
 * messages and bytes per message give the minimum and recommended package figures.
 */
export function TpsEstimator() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<TpsRequest>();
  const assess = useMutation({ mutationFn: (q: TpsRequest) => capacityApi.assessTps(q) });

  const integer = (min: number, max: number) => ({
    validator: (_r: unknown, v: unknown) => {
      if (v === null || v === undefined) return Promise.reject(new Error(t('capacity.form.required')));
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return Promise.reject(new Error(t('capacity.tps.nonNegative')));
      if (v < min || v > max)
        return Promise.reject(new Error(t('capacity.tps.range', { min: formatNumber(min, lang), max: formatNumber(max, lang) })));
      return Promise.resolve();
    },
  });

  const row = (r: TpsResponse['minimum']) => (
    <>
      {formatNumber(r.up_down_stream_connections, lang)} / {formatNumber(r.push_tps, lang)} / {formatNumber(r.alert_tps, lang)}
    </>
  );

  return (
    <div data-testid="tps-estimator">
      <Form<TpsRequest>
        form={form}
        name="tps"
        layout="inline"
        onFinish={(v) => assess.mutate(v)}
        initialValues={{ msg_interval: 10, msg_size: 256 }}
      >
        <Form.Item name="things_num" label={t('capacity.tps.things')} rules={[integer(0, TPS_MAX_THINGS)]}>
          <InputNumber precision={0} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="msg_interval" label={t('capacity.tps.interval')} rules={[integer(1, TPS_MAX_INTERVAL_S)]}>
          <InputNumber precision={0} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="msg_size" label={t('capacity.tps.size')} rules={[integer(0, MSG_SIZE_MAX)]}>
          <InputNumber precision={0} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" loading={assess.isPending} data-testid="tps-assess">
            {t('capacity.tps.assess')}
          </Button>
        </Form.Item>
      </Form>
      {assess.data && (
        <Space direction="vertical" style={{ width: '100%', marginTop: 12 }}>
          <Descriptions size="small" bordered column={1} data-testid="tps-result">
            <Descriptions.Item label={t('capacity.tps.columns')}>{t('capacity.tps.columnsValue')}</Descriptions.Item>
            <Descriptions.Item label={t('capacity.tps.minimum')}>{row(assess.data.minimum)}</Descriptions.Item>
            <Descriptions.Item label={t('capacity.tps.recommend')}>{row(assess.data.recommend)}</Descriptions.Item>
          </Descriptions>
        </Space>
      )}
    </div>
  );
}
