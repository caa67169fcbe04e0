import {
  ACCURACY_MAX,
  type DataField,
  type DataFieldInput,
  DEFAULT_TIME_PATTERN,
  DISPLAY_FORMATS,
  FIELD_NAME_RE,
  TIME_UNITS,
} from '@loggerhead/contract/schemas/device-type-schema.ts';
import { Col, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { deviceTypeApi, deviceTypeKeys } from '../api/device-type.api.ts';
import { formatFieldValue } from './field-format.ts';

type Values = Required<Omit<DataFieldInput, 'sort'>>;
const DEFAULTS: Values = {
  name: '',
  display_name: '',
  is_array: false,
  is_display: true,
  notes: '',
  display_format: 'original_string',
  accuracy: 2,
  time_format: DEFAULT_TIME_PATTERN,
  time_unit: 'ms',
};

/** A sample for the preview, per format, so the user sees at once what the format does. */
const SAMPLES: Record<Values['display_format'], string> = {
  decimal: '4660',
  hex: '4660',
  hex_bytes: '4660',
  original_long: '12345678901234567890',
  time: String(Date.now()),
  accuracy: '3.14159',
  original_string: 'ok',
  hexstr_to_hex: '4c6f67',
  hexstr_to_ascii: '4c6f67',
};

/** Reads the sample as JSON when it is JSON (numbers, arrays), else as text. */
function parseSample(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** Adds or edits a field of a data group, with a live preview of its display format. */
export function FieldDialog({
  tenantId,
  typeId,
  groupId,
  field,
  open,
  onClose,
}: {
  tenantId: string;
  typeId: string;
  groupId: string;
  field: DataField | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const values = Form.useWatch([], form) as Values | undefined;
  const [sample, setSample] = useState('');

  useEffect(() => {
    if (open) setSample(SAMPLES[field?.display_format ?? DEFAULTS.display_format]);
  }, [open, field]);

  const format = values?.display_format ?? 'original_string';
  const preview = values ? formatFieldValue(parseSample(sample), { ...DEFAULTS, ...values }) : '';

  return (
    <FormModal<Values>
      open={open}
      title={field ? t('device-type.field.editTitle') : t('device-type.field.addTitle')}
      form={form}
      name="data-field"
      width={640}
      record={field}
      initial={field ? { ...DEFAULTS, ...field } : DEFAULTS}
      submit={(v) => {
        const body = { ...DEFAULTS, ...v };
        return field
          ? deviceTypeApi.updateField(tenantId, typeId, groupId, field.id, body)
          : deviceTypeApi.createField(tenantId, typeId, groupId, body);
      }}
      invalidate={deviceTypeKeys.schema(tenantId, typeId)}
      savedText={t('device-type.form.saved')}
      fields={['name']}
      onClose={onClose}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="name"
            label={t('device-type.field.name')}
            rules={[
              { required: true, message: t('device-type.field.nameRequired') },
              { pattern: FIELD_NAME_RE, message: t('device-type.field.nameRule') },
              { max: 64, message: t('device-type.form.max64') },
            ]}
          >
            <Input maxLength={64} className="lh-mono" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="display_name"
            label={t('device-type.field.displayName')}
            rules={[{ max: 64, message: t('device-type.form.max64') }]}
          >
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="display_format" label={t('device-type.field.format')}>
            <Select
              options={DISPLAY_FORMATS.map((f) => ({ value: f, label: t(`device-type.format.${f}`) }))}
              onChange={(f: Values['display_format']) => setSample(SAMPLES[f])}
              data-testid="field-format"
            />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="is_array" label={t('device-type.field.isArray')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="is_display" label={t('device-type.field.isDisplay')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        {format === 'accuracy' && (
          <Col span={12}>
            <Form.Item name="accuracy" label={t('device-type.field.accuracy')} rules={[{ type: 'integer', min: 0, max: ACCURACY_MAX }]}>
              <InputNumber min={0} max={ACCURACY_MAX} precision={0} />
            </Form.Item>
          </Col>
        )}
        {format === 'time' && (
          <>
            <Col span={12}>
              <Form.Item name="time_format" label={t('device-type.field.timeFormat')} rules={[{ required: true, max: 40 }]}>
                <Input placeholder={DEFAULT_TIME_PATTERN} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="time_unit" label={t('device-type.field.timeUnit')}>
                <Select options={TIME_UNITS.map((u) => ({ value: u, label: t(`device-type.unit.${u}`) }))} />
              </Form.Item>
            </Col>
          </>
        )}
        <Col span={24}>
          <Form.Item name="notes" label={t('device-type.field.notes')} rules={[{ max: 500 }]}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Col>
      </Row>
      <div className="lh-field-preview" data-testid="field-preview">
        <Typography.Text type="secondary">{t('device-type.field.preview')}</Typography.Text>
        <Input
          size="small"
          value={sample}
          onChange={(e) => setSample(e.target.value)}
          style={{ width: 220 }}
          aria-label={t('device-type.field.sample')}
        />
        <span>→</span>
        <Typography.Text code>{preview}</Typography.Text>
      </div>
    </FormModal>
  );
}
