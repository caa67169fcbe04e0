import { useQuery } from '@tanstack/react-query';
import { Checkbox, Col, Form, type FormInstance, Input, InputNumber, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UdsTransportInput } from '../../../api/ecu.api.ts';
import { ecusQuery } from '../../../api/ecu.queries.ts';
import { parseAddress } from '../../../lib/uds-pdu.ts';

export interface TransportValues {
  channel: number;
  ecu_id?: string;
  frame_type: 'standard' | 'extended';
  request_address?: string;
  response_address?: string;
  fd: boolean;
  fill_byte: string;
  st_min: number;
  flow_control_timeout_ms: number;
  timeout_ms: number;
  enhanced_timeout_ms: number;
}

export const TRANSPORT_DEFAULTS: Partial<TransportValues> = {
  channel: 0,
  frame_type: 'standard',
  fd: false,
  fill_byte: 'CC',
  st_min: 0,
  flow_control_timeout_ms: 1000,
  timeout_ms: 1000,
  enhanced_timeout_ms: 5000,
};
const MAX_TIMEOUT = 2_147_483_647;

/** Form values → the transport the server takes (an ECU, or explicit addresses of the chosen frame type). */
export function toTransport(v: TransportValues): UdsTransportInput {
  const common = {
    channel: v.channel,
    fd: v.fd,
    fill_byte: Number.parseInt(v.fill_byte, 16),
    st_min: v.st_min,
    flow_control_timeout_ms: v.flow_control_timeout_ms,
    timeout_ms: v.timeout_ms,
    enhanced_timeout_ms: v.enhanced_timeout_ms,
  };
  if (v.ecu_id) return { ...common, ecu_id: v.ecu_id };
  return {
    ...common,
    frame_type: v.frame_type,
    request_address: parseAddress(v.request_address ?? '', v.frame_type) ?? undefined,
    response_address: parseAddress(v.response_address ?? '', v.frame_type) ?? undefined,
  };
}

/** Spec §3/§5 UDS transport: ECU or addresses (standard ≤ 7FF, extended ≤ 1FFFFFFF), fill byte 00–FF, STmin 0–127, time-outs. */
export function TransportForm({
  form,
  tenantId,
  requireEcu,
}: {
  form: FormInstance<TransportValues>;
  tenantId: string;
  requireEcu?: boolean;
}) {
  const { t } = useTranslation();
  const ecus = useQuery(ecusQuery(tenantId));
  const ecuId = Form.useWatch('ecu_id', form);
  const frameType = Form.useWatch('frame_type', form) ?? 'standard';
  const address = {
    validator: (_r: unknown, v: string | undefined) => {
      if (ecuId) return Promise.resolve();
      if (!v) return Promise.reject(t('remote.uds.required'));
      return parseAddress(v, frameType) === null ? Promise.reject(t(`remote.uds.address.${frameType}`)) : Promise.resolve();
    },
  };
  const timeoutItem = (name: keyof TransportValues) => (
    <Col xs={12} md={5}>
      <Form.Item name={name} label={t(`remote.uds.${name}`)} rules={[{ required: true, type: 'integer', min: 0, max: MAX_TIMEOUT }]}>
        <InputNumber min={0} max={MAX_TIMEOUT} precision={0} style={{ width: '100%' }} suffix="ms" />
      </Form.Item>
    </Col>
  );
  return (
    <Form form={form} layout="vertical" size="small" initialValues={TRANSPORT_DEFAULTS}>
      <Row gutter={12}>
        <Col xs={12} md={6}>
          <Form.Item
            name="ecu_id"
            label={t('remote.uds.ecu')}
            rules={requireEcu ? [{ required: true, message: t('remote.uds.required') }] : []}
          >
            <Select
              allowClear
              loading={ecus.isPending}
              placeholder={requireEcu ? undefined : t('remote.uds.manual')}
              options={(ecus.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
              onChange={(id?: string) => {
                // The chosen ECU's own addresses are shown (read-only); clearing it leaves them to edit.
                const ecu = (ecus.data ?? []).find((e) => e.id === id);
                if (ecu)
                  form.setFieldsValue({
                    frame_type: ecu.frame_type,
                    request_address: ecu.physical_address.toString(16).toUpperCase(),
                    response_address: ecu.response_address.toString(16).toUpperCase(),
                  });
                form.validateFields(['request_address', 'response_address']).catch(() => undefined);
              }}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={3}>
          <Form.Item name="channel" label={t('remote.frames.channel')} rules={[{ required: true, type: 'integer', min: 0, max: 15 }]}>
            <InputNumber min={0} max={15} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        {!requireEcu && (
          <>
            <Col xs={12} md={5}>
              <Form.Item name="frame_type" label={t('remote.uds.frameType')}>
                <Radio.Group
                  disabled={Boolean(ecuId)}
                  onChange={() => form.validateFields(['request_address', 'response_address']).catch(() => undefined)}
                >
                  <Radio value="standard">{t('remote.uds.standard')}</Radio>
                  <Radio value="extended">{t('remote.uds.extended')}</Radio>
                </Radio.Group>
              </Form.Item>
            </Col>
            <Col xs={12} md={5}>
              <Form.Item
                name="request_address"
                label={t('remote.uds.requestAddress')}
                rules={[address]}
                dependencies={['ecu_id', 'frame_type']}
              >
                <Input className="lh-mono" disabled={Boolean(ecuId)} placeholder={frameType === 'extended' ? '18DA10F1' : '7E0'} />
              </Form.Item>
            </Col>
            <Col xs={12} md={5}>
              <Form.Item
                name="response_address"
                label={t('remote.uds.responseAddress')}
                rules={[address]}
                dependencies={['ecu_id', 'frame_type']}
              >
                <Input className="lh-mono" disabled={Boolean(ecuId)} placeholder={frameType === 'extended' ? '18DAF110' : '7E8'} />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>
      <Row gutter={12}>
        <Col xs={12} md={3}>
          <Form.Item
            name="fill_byte"
            label={t('remote.uds.fillByte')}
            rules={[{ required: true, pattern: /^[0-9a-fA-F]{1,2}$/, message: t('remote.uds.fillByteRange') }]}
          >
            <Input className="lh-mono" addonBefore="0x" maxLength={2} />
          </Form.Item>
        </Col>
        <Col xs={12} md={3}>
          <Form.Item name="st_min" label={t('remote.uds.stMin')} rules={[{ required: true, type: 'integer', min: 0, max: 127 }]}>
            <InputNumber min={0} max={127} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        {timeoutItem('flow_control_timeout_ms')}
        {timeoutItem('timeout_ms')}
        {timeoutItem('enhanced_timeout_ms')}
        <Col xs={12} md={3}>
          <Form.Item name="fd" valuePropName="checked" label=" ">
            <Checkbox>CAN FD</Checkbox>
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
