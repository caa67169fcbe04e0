import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { TWIN_RULE_OPS, type TwinAction, type TwinRule } from '@loggerhead/contract/schemas/twin.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Divider, Flex, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { modelApi, modelBlocksQuery, modelsQuery, publicModelsQuery, type TwinRuleBody } from '../api/model.api.ts';
import { parseTyped } from './typed-value.tsx';

interface Values {
  name: string;
  info_model_id: string;
  conditions: { field: string; op: (typeof TWIN_RULE_OPS)[number]; value: string; join?: 'and' | 'or' }[];
  actions: { type: 'event' | 'desired'; message?: string; field?: string; value?: string }[];
}

/** A desired value typed as text, read as the property's type (numbers and booleans from their text). */
function typedFromText(dataType: number, text: string): { ok: true; value: unknown } | { ok: false } {
  if (dataType === 1) return text.trim() !== '' && Number.isFinite(Number(text)) ? { ok: true, value: Number(text) } : { ok: false };
  if (dataType === 7) return text === 'true' || text === 'false' ? { ok: true, value: text === 'true' } : { ok: false };
  return parseTyped(dataType, text);
}

/**
 * Adds or edits a twin rule: the info model whose devices it watches, its conditions on the model's
 * status properties (read left to right, each joined by and/or to the ones before it), and its
 * actions — an event in the device's model event log, or desired values sent to the device.
 */
export function TwinRuleDialog({ tenantId, rule, onClose }: { tenantId: string; rule: TwinRule | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const own = useQuery(modelsQuery(tenantId));
  const pub = useQuery(publicModelsQuery());
  const modelId = Form.useWatch('info_model_id', form) ?? rule?.trigger_filter.info_model_id ?? '';
  const blocks = useQuery(modelBlocksQuery(tenantId, modelId));
  const props = (blocks.data ?? []).flatMap((b) =>
    b.json_schema.status.map((p) => ({ path: `${b.name}.${p.identifier}`, data_type: p.data_type, read_only: p.read_only ?? false })),
  );
  const typeOf = new Map(props.map((p) => [p.path, p.data_type]));
  const fieldOptions = props.map((p) => ({ value: p.path, label: p.path }));
  const modelOptions = [...(own.data?.list ?? []), ...(pub.data?.list ?? [])].map((m) => ({
    value: m.id,
    label: m.display_name ? `${m.display_name} (${m.name})` : m.name,
  }));

  const save = useMutation({
    mutationFn: (body: TwinRuleBody) => (rule ? modelApi.updateRule(tenantId, rule.id, body) : modelApi.createRule(tenantId, body)),
    onSuccess: () => {
      message.success(t('device-type.model.saved'));
      onClose();
    },
  });

  const submit = (v: Values) => {
    const actions: TwinAction[] = [];
    for (const [i, a] of (v.actions ?? []).entries()) {
      if (a.type === 'event') {
        actions.push({ type: 'event', message: a.message ?? '' });
        continue;
      }
      const r = typedFromText(typeOf.get(a.field ?? '') ?? 2, a.value ?? '');
      if (!r.ok) {
        form.setFields([{ name: ['actions', i, 'value'], errors: [t('device-type.model.twin.badValue')] }]);
        return;
      }
      actions.push({ type: 'desired', values: { [a.field as string]: r.value } });
    }
    save.mutate({
      name: v.name,
      status: rule?.status === 0 ? 0 : 1,
      shadow_type: 'reported',
      trigger_condition: v.conditions.map((c) => ({
        field: c.field,
        op: c.op,
        value: c.value,
        value_type: (typeOf.get(c.field) ?? 2) as 1 | 2 | 4 | 5 | 7,
        join: c.join ?? 'and',
      })),
      trigger_filter: {
        info_model_id: v.info_model_id,
        ...(rule?.trigger_filter.things_ids ? { things_ids: rule.trigger_filter.things_ids } : {}),
      },
      actions,
    });
  };

  const initial: Partial<Values> = rule
    ? {
        name: rule.name,
        info_model_id: rule.trigger_filter.info_model_id,
        conditions: rule.trigger_condition.map((c) => ({ field: c.field, op: c.op, value: c.value, join: c.join })),
        actions: rule.actions.map((a) =>
          a.type === 'event'
            ? { type: 'event' as const, message: a.message }
            : (() => {
                const [field, value] = Object.entries(a.values)[0] ?? ['', ''];
                return { type: 'desired' as const, field, value: typeof value === 'string' ? value : JSON.stringify(value) };
              })(),
        ),
      }
    : { conditions: [{ field: '', op: '>', value: '', join: 'and' }], actions: [{ type: 'event', message: '' }] };

  return (
    <Modal
      title={rule ? t('device-type.rule.edit') : t('device-type.rule.add')}
      open
      width={760}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'rule-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" preserve={false} initialValues={initial} onFinish={submit}>
        <Flex gap={12}>
          <Form.Item name="name" label={t('device-type.rule.name')} rules={[{ required: true, whitespace: true }]} style={{ flex: 1 }}>
            <Input maxLength={64} data-testid="rule-name" />
          </Form.Item>
          <Form.Item name="info_model_id" label={t('device-type.rule.model')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Select options={modelOptions} showSearch optionFilterProp="label" data-testid="rule-model" />
          </Form.Item>
        </Flex>
        <Divider titlePlacement="start">{t('device-type.rule.conditions')}</Divider>
        <Form.List name="conditions">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f, i) => (
                <Flex key={f.key} gap={8} align="baseline">
                  {i > 0 ? (
                    <Form.Item name={[f.name, 'join']}>
                      <Select
                        style={{ width: 80 }}
                        options={[
                          { value: 'and', label: t('device-type.rule.and') },
                          { value: 'or', label: t('device-type.rule.or') },
                        ]}
                      />
                    </Form.Item>
                  ) : (
                    <span style={{ width: 80 }}>{t('device-type.rule.when')}</span>
                  )}
                  <Form.Item name={[f.name, 'field']} rules={[{ required: true, message: t('device-type.rule.fieldRequired') }]}>
                    <Select
                      style={{ width: 220 }}
                      options={fieldOptions}
                      placeholder={t('device-type.rule.field')}
                      data-testid={`rule-field-${f.name}`}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'op']} rules={[{ required: true }]}>
                    <Select
                      style={{ width: 100 }}
                      options={TWIN_RULE_OPS.map((o) => ({ value: o, label: o }))}
                      data-testid={`rule-op-${f.name}`}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'value']} rules={[{ required: true, message: t('device-type.rule.valueRequired') }]}>
                    <Input placeholder={t('device-type.rule.value')} data-testid={`rule-value-${f.name}`} style={{ width: 160 }} />
                  </Form.Item>
                  {fields.length > 1 && <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('device-type.model.remove')} />}
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ op: '=', value: '', join: 'and' })}>
                {t('device-type.rule.addCondition')}
              </Button>
            </>
          )}
        </Form.List>
        <Divider titlePlacement="start">{t('device-type.rule.actions')}</Divider>
        <Form.List name="actions">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <ActionRow key={f.key} name={f.name} fieldOptions={fieldOptions} onRemove={() => remove(f.name)} />
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ type: 'event', message: '' })}>
                {t('device-type.rule.addAction')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

function ActionRow({
  name,
  fieldOptions,
  onRemove,
}: {
  name: number;
  fieldOptions: { value: string; label: string }[];
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<Values>();
  const type = Form.useWatch(['actions', name, 'type'], form);
  return (
    <Flex gap={8} align="baseline">
      <Form.Item name={[name, 'type']}>
        <Select
          style={{ width: 160 }}
          data-testid={`action-type-${name}`}
          options={[
            { value: 'event', label: t('device-type.rule.action.event') },
            { value: 'desired', label: t('device-type.rule.action.desired') },
          ]}
        />
      </Form.Item>
      {type === 'desired' ? (
        <>
          <Form.Item name={[name, 'field']} rules={[{ required: true, message: t('device-type.rule.fieldRequired') }]}>
            <Select style={{ width: 220 }} options={fieldOptions} placeholder={t('device-type.rule.field')} />
          </Form.Item>
          <Form.Item name={[name, 'value']} rules={[{ required: true, message: t('device-type.rule.valueRequired') }]}>
            <Input placeholder={t('device-type.rule.value')} style={{ width: 160 }} />
          </Form.Item>
        </>
      ) : (
        <Form.Item name={[name, 'message']} style={{ flex: 1 }}>
          <Input maxLength={256} placeholder={t('device-type.rule.action.message')} data-testid={`action-message-${name}`} />
        </Form.Item>
      )}
      <MinusCircleOutlined onClick={onRemove} aria-label={t('device-type.model.remove')} />
    </Flex>
  );
}
