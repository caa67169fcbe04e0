import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Flex, Form, Input, InputNumber, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client.ts';
import { mayCall } from '../../../session/can.ts';
import type { DeviceTabProps } from './tab-props.ts';

interface Values {
  operation_name: string;
  params: string;
  timeout_ms: number;
}

const STATE_COLOR: Record<string, string> = { answered: 'green', failed: 'red', timeout: 'orange', expired: 'default' };

/**
 * Spec §7 device test: one message sent to the device now, and its raw answer as the device sent it
 * (or the time-out, or "expired" when the device is offline).
 */
export default function DeviceTestTab({ thing, tenantId }: DeviceTabProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const send = useMutation({
    mutationFn: (v: { operation_name: string; operation_params: Record<string, unknown>; timeout_ms: number }) =>
      call(Routes.command.deviceTest, { params: { tenant_id: tenantId, things_id: thing.id }, body: v }),
  });
  const submit = (v: Values) => {
    let operation_params: Record<string, unknown>;
    try {
      operation_params = v.params?.trim() ? JSON.parse(v.params) : {};
      if (typeof operation_params !== 'object' || operation_params === null || Array.isArray(operation_params)) throw new Error();
    } catch {
      form.setFields([{ name: 'params', errors: [t('device.test.badParams')] }]);
      return;
    }
    send.mutate({ operation_name: v.operation_name.trim(), operation_params, timeout_ms: v.timeout_ms });
  };
  const r = send.data;
  return (
    <Flex vertical gap={16} data-testid="device-test">
      <Form<Values>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={{ operation_name: 'common_fn.get_config', params: '{}', timeout_ms: 5000 }}
        onFinish={submit}
        disabled={!mayCall(Routes.command.deviceTest)}
      >
        <Form.Item name="operation_name" label={t('device.test.operation')} rules={[{ required: true, whitespace: true }]}>
          <Input className="lh-mono" data-testid="device-test-operation" />
        </Form.Item>
        <Form.Item name="params" label={t('device.test.params')}>
          <Input.TextArea rows={4} className="lh-mono" data-testid="device-test-params" />
        </Form.Item>
        <Form.Item name="timeout_ms" label={t('device.test.timeout')}>
          <InputNumber min={500} max={30_000} step={500} addonAfter="ms" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={send.isPending} data-testid="device-test-send">
          {t('device.test.send')}
        </Button>
      </Form>
      {r && (
        <div data-testid="device-test-result">
          <Descriptions size="small" column={3} bordered>
            <Descriptions.Item label={t('device.test.state')}>
              <Tag color={STATE_COLOR[r.command.state] ?? 'blue'}>
                {t(`device.test.states.${r.command.state}`, { defaultValue: r.command.state })}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('device.test.elapsed')}>{r.elapsed_ms} ms</Descriptions.Item>
            <Descriptions.Item label={t('device.test.correlation')}>
              <Typography.Text className="lh-mono">{r.command.correlation_id}</Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          {r.responses.length ? (
            r.responses.map((x) => (
              <pre key={x.id} className="lh-mono" data-testid="device-test-response" style={{ whiteSpace: 'pre-wrap', marginTop: 12 }}>
                {JSON.stringify(
                  {
                    correlation_id: x.correlation_id,
                    code: x.code,
                    message: x.message,
                    payload: x.payload,
                    partial: x.partial || undefined,
                  },
                  null,
                  2,
                )}
              </pre>
            ))
          ) : (
            <Alert style={{ marginTop: 12 }} type="warning" showIcon message={t('device.test.noAnswer')} />
          )}
          <details style={{ marginTop: 8 }}>
            <summary>{t('device.test.sent')}</summary>
            <pre className="lh-mono" style={{ whiteSpace: 'pre-wrap' }}>
              {JSON.stringify(r.sent, null, 2)}
            </pre>
          </details>
        </div>
      )}
    </Flex>
  );
}
