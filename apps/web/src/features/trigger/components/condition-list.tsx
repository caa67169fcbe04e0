import type { DbcMessageInfo } from '@loggerhead/contract/schemas/dbc.ts';
import { AutoComplete, Button, Card, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ConditionForm, MAX_CONDITIONS, type RuleForm, signalConditionCount } from '../trigger-rule.form.ts';

const COMPARE_OPS = ['>', '>=', '<', '<=', '==', '!='] as const;
const HEX = /^(\s*[0-9a-fA-F]{2})*\s*$/;

/**
 * The conditions of a raw-frame or DBC-signal rule (spec §3): compare, range, change, masked bytes.
 * `messages` — the DBC bound to the rule's channel, offered while typing message and signal names.
 */
export function ConditionList({ dataType, messages }: { dataType: RuleForm['data_type']; messages?: DbcMessageInfo[] }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<RuleForm>();
  const conditions = Form.useWatch('conditions', form);
  const sources = dataType === 'signal' ? (['signal', 'data', 'length'] as const) : (['data', 'length'] as const);
  return (
    <Form.List
      name="conditions"
      rules={[
        {
          validator: async (_, list: ConditionForm[] | undefined) => {
            if (!list?.length) throw new Error(t('trigger.cond.atLeastOne'));
            const signals = signalConditionCount(list);
            if (signals > 1) throw new Error(t('trigger.cond.oneSignal'));
            if (dataType === 'signal' && signals !== 1) throw new Error(t('trigger.cond.needSignal'));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((field) => {
            const c = conditions?.[field.name];
            const op = c?.op;
            const source = c?.source ?? 'data';
            return (
              <Card key={field.key} size="small" style={{ marginBottom: 8 }} data-testid="trigger-condition">
                <Space wrap align="start">
                  <Form.Item name={[field.name, 'source']} label={t('trigger.cond.source')} initialValue="data">
                    <Select style={{ width: 130 }} options={sources.map((s) => ({ value: s, label: t(`trigger.cond.sources.${s}`) }))} />
                  </Form.Item>
                  {source === 'data' && (
                    <>
                      <Form.Item name={[field.name, 'start_byte']} label={t('trigger.cond.startByte')} initialValue={0}>
                        <InputNumber min={0} max={63} precision={0} />
                      </Form.Item>
                      {op !== 'mask' && (
                        <>
                          <Form.Item name={[field.name, 'length']} label={t('trigger.cond.length')} initialValue={1}>
                            <InputNumber min={1} max={8} precision={0} />
                          </Form.Item>
                          <Form.Item name={[field.name, 'byte_order']} label={t('trigger.cond.byteOrder')} initialValue="intel">
                            <Select
                              style={{ width: 120 }}
                              options={[
                                { value: 'intel', label: 'Intel' },
                                { value: 'motorola', label: 'Motorola' },
                              ]}
                            />
                          </Form.Item>
                          <Form.Item
                            name={[field.name, 'signed']}
                            label={t('trigger.cond.signed')}
                            valuePropName="checked"
                            initialValue={false}
                          >
                            <Switch size="small" />
                          </Form.Item>
                        </>
                      )}
                    </>
                  )}
                  {source === 'signal' && (
                    <>
                      <Form.Item name={[field.name, 'message']} label={t('trigger.cond.message')} rules={[{ required: true, max: 128 }]}>
                        <AutoComplete
                          style={{ width: 180 }}
                          options={(messages ?? []).map((m) => ({
                            value: m.name,
                            label: `${m.name} (0x${m.id.toString(16).toUpperCase()})`,
                          }))}
                          filterOption={(input, o) =>
                            String(o?.value ?? '')
                              .toLowerCase()
                              .includes(input.toLowerCase())
                          }
                        />
                      </Form.Item>
                      <Form.Item name={[field.name, 'signal']} label={t('trigger.cond.signal')} rules={[{ required: true, max: 128 }]}>
                        <AutoComplete
                          style={{ width: 180 }}
                          options={(messages?.find((m) => m.name === c?.message)?.signals ?? []).map((g) => ({
                            value: g.name,
                            label: g.unit ? `${g.name} (${g.unit})` : g.name,
                          }))}
                          filterOption={(input, o) =>
                            String(o?.value ?? '')
                              .toLowerCase()
                              .includes(input.toLowerCase())
                          }
                        />
                      </Form.Item>
                    </>
                  )}
                  <Form.Item name={[field.name, 'op']} label={t('trigger.cond.op')} rules={[{ required: true }]}>
                    <Select
                      style={{ width: 150 }}
                      options={[
                        ...COMPARE_OPS.map((o) => ({ value: o, label: o })),
                        { value: 'in', label: t('trigger.cond.ops.in') },
                        { value: 'out', label: t('trigger.cond.ops.out') },
                        { value: 'change', label: t('trigger.cond.ops.change') },
                        ...(source === 'data' ? [{ value: 'mask', label: t('trigger.cond.ops.mask') }] : []),
                      ]}
                    />
                  </Form.Item>
                  {op && (COMPARE_OPS as readonly string[]).includes(op) && (
                    <Form.Item name={[field.name, 'value']} label={t('trigger.cond.value')} rules={[{ required: true }]}>
                      <InputNumber />
                    </Form.Item>
                  )}
                  {(op === 'in' || op === 'out') && (
                    <>
                      <Form.Item name={[field.name, 'min']} label={t('trigger.cond.min')} rules={[{ required: true }]}>
                        <InputNumber />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'max']}
                        label={t('trigger.cond.max')}
                        dependencies={[['conditions', field.name, 'min']]}
                        rules={[
                          { required: true },
                          {
                            validator: async (_, v: number | undefined) => {
                              const min = form.getFieldValue(['conditions', field.name, 'min']);
                              if (v !== undefined && min !== undefined && v < min) throw new Error(t('trigger.cond.maxBelowMin'));
                            },
                          },
                        ]}
                      >
                        <InputNumber />
                      </Form.Item>
                    </>
                  )}
                  {op === 'mask' && (
                    <>
                      <Form.Item
                        name={[field.name, 'mask']}
                        label={t('trigger.cond.mask')}
                        rules={[{ required: true }, { pattern: HEX, message: t('trigger.cond.hexBytes') }]}
                      >
                        <Input style={{ width: 180 }} placeholder="FF 0F" />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'pattern']}
                        label={t('trigger.cond.pattern')}
                        dependencies={[['conditions', field.name, 'mask']]}
                        rules={[
                          { required: true },
                          { pattern: HEX, message: t('trigger.cond.hexBytes') },
                          {
                            validator: async (_, v: string | undefined) => {
                              const mask: string = form.getFieldValue(['conditions', field.name, 'mask']) ?? '';
                              if (v && mask && v.replace(/\s+/g, '').length !== mask.replace(/\s+/g, '').length)
                                throw new Error(t('trigger.cond.maskLength'));
                            },
                          },
                        ]}
                      >
                        <Input style={{ width: 180 }} placeholder="12 03" />
                      </Form.Item>
                    </>
                  )}
                  <Button danger type="link" onClick={() => remove(field.name)}>
                    {t('trigger.list.delete')}
                  </Button>
                </Space>
              </Card>
            );
          })}
          <Form.ErrorList errors={errors} />
          <Button
            disabled={fields.length >= MAX_CONDITIONS}
            onClick={() => add({ source: dataType === 'signal' && signalConditionCount(conditions) === 0 ? 'signal' : 'data', op: '>' })}
            data-testid="trigger-add-condition"
          >
            {t('trigger.cond.add')}
          </Button>
        </>
      )}
    </Form.List>
  );
}
