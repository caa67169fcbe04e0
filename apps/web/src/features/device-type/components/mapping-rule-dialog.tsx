import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { MappingRule } from '@loggerhead/contract/schemas/mapping-rules.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, AutoComplete, Button, type ButtonProps, Flex, Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { mayCall } from '../../../session/can.ts';
import { modelBlocksQuery, modelsQuery, publicModelsQuery } from '../api/model.api.ts';
import { entitiesQuery, type MappingRuleBody, rulesApi } from '../api/rules.api.ts';

interface Values {
  name: string;
  description?: string;
  info_model_id: string;
  source: 'json' | 'can';
  entity_id?: string | null;
  enabled: boolean;
  mappings: { source_key: string; target: string; scale?: number | null; offset?: number | null; unit?: string }[];
}

/**
 * Adds or edits a mapping rule (decision 0156): for the devices of one info model, which raw key (a
 * JSON telemetry key, or a decoded CAN signal name) lands on which status property, and how its
 * value is scaled and offset on the way.
 */
export function MappingRuleDialog({ tenantId, rule, onClose }: { tenantId: string; rule: MappingRule | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const own = useQuery(modelsQuery(tenantId));
  const pub = useQuery(publicModelsQuery());
  const modelId = Form.useWatch('info_model_id', form) ?? rule?.info_model_id ?? '';
  const blocks = useQuery(modelBlocksQuery(tenantId, modelId));
  const entities = useQuery(entitiesQuery(tenantId, mayCall(Routes.mappingEntities.list)));
  const entityId = Form.useWatch('entity_id', form) ?? rule?.entity_id ?? null;
  const entity = (entities.data?.list ?? []).find((e) => e.id === entityId);
  const keyOptions = (entity?.fields ?? []).map((f) => ({
    value: f.key,
    label: `${f.key}${f.name ? ` (${f.name})` : ''}${f.unit ? ` [${f.unit}]` : ''}`,
  }));
  const targets = (blocks.data ?? []).flatMap((b) =>
    b.json_schema.status.map((p) => ({ value: `${b.name}.${p.identifier}`, label: `${b.name}.${p.identifier} (${p.name})` })),
  );
  const modelOptions = [...(own.data?.list ?? []), ...(pub.data?.list ?? [])].map((m) => ({
    value: m.id,
    label: m.display_name ? `${m.display_name} (${m.name})` : m.name,
  }));
  const save = useMutation({
    mutationFn: (body: MappingRuleBody) =>
      rule ? rulesApi.updateMapping(tenantId, rule.id, body) : rulesApi.createMapping(tenantId, body),
    onSuccess: () => {
      message.success(t('device-type.model.saved'));
      onClose();
    },
  });
  const submit = (v: Values) =>
    save.mutate({
      name: v.name,
      description: v.description ?? '',
      info_model_id: v.info_model_id,
      source: v.source,
      entity_id: v.entity_id ?? null,
      status: v.enabled ? 1 : 0,
      mappings: v.mappings.map((m) => ({
        source_key: m.source_key.trim(),
        target: m.target,
        scale: m.scale ?? 1,
        offset: m.offset ?? 0,
        unit: m.unit ?? '',
      })),
    });

  return (
    <Modal
      open
      width={860}
      title={t(rule ? 'device-type.mapping.edit' : 'device-type.mapping.add')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'mapping-save' } as ButtonProps}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={
          rule
            ? { ...rule, enabled: rule.status === 1 }
            : { source: 'json', enabled: true, mappings: [{ source_key: '', target: undefined, scale: 1, offset: 0, unit: '' }] }
        }
      >
        <Flex gap={12}>
          <Form.Item
            name="name"
            label={t('device-type.mapping.name')}
            rules={[{ required: true, whitespace: true, max: 64 }]}
            style={{ flex: 1 }}
          >
            <Input data-testid="mapping-name" />
          </Form.Item>
          <Form.Item name="info_model_id" label={t('device-type.rule.model')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Select options={modelOptions} showSearch optionFilterProp="label" data-testid="mapping-model" />
          </Form.Item>
          <Form.Item name="source" label={t('device-type.mapping.source')} style={{ width: 180 }}>
            <Select
              options={[
                { value: 'json', label: t('device-type.mapping.sources.json') },
                { value: 'can', label: t('device-type.mapping.sources.can') },
              ]}
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('device-type.rule.status')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="entity_id" label={t('device-type.mapping.entity')} style={{ flex: 1 }}>
            <Select
              allowClear
              placeholder={t('device-type.mapping.noEntity')}
              options={(entities.data?.list ?? []).map((e) => ({
                value: e.id,
                label: `${e.name} (${t(`device-type.mapping.sources.${e.source}`)})`,
              }))}
              onChange={(id) => {
                const e = (entities.data?.list ?? []).find((x) => x.id === id);
                if (e) form.setFieldValue('source', e.source);
              }}
            />
          </Form.Item>
          <Form.Item name="description" label={t('device-type.mapping.description')} style={{ flex: 2 }}>
            <Input maxLength={256} />
          </Form.Item>
        </Flex>
        <Form.List name="mappings">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Flex key={f.key} gap={8} align="baseline">
                  <Form.Item
                    name={[f.name, 'source_key']}
                    rules={[{ required: true, whitespace: true, message: t('device-type.mapping.keyRequired') }]}
                    style={{ flex: 1 }}
                  >
                    <AutoComplete
                      options={keyOptions}
                      placeholder={t('device-type.mapping.sourceKey')}
                      className="lh-mono"
                      data-testid="mapping-source-key"
                    />
                  </Form.Item>
                  <span>→</span>
                  <Form.Item
                    name={[f.name, 'target']}
                    rules={[{ required: true, message: t('device-type.rule.fieldRequired') }]}
                    style={{ flex: 1.4 }}
                  >
                    <Select options={targets} placeholder={t('device-type.mapping.target')} data-testid="mapping-target" />
                  </Form.Item>
                  <Form.Item name={[f.name, 'scale']}>
                    <InputNumber placeholder={t('device-type.mapping.scale')} addonBefore="×" style={{ width: 130 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'offset']}>
                    <InputNumber placeholder={t('device-type.mapping.offset')} addonBefore="+" style={{ width: 130 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'unit']}>
                    <Input placeholder={t('device-type.mapping.unit')} style={{ width: 100 }} />
                  </Form.Item>
                  <MinusCircleOutlined aria-label={t('device-type.action.delete')} onClick={() => fields.length > 1 && remove(f.name)} />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ scale: 1, offset: 0, unit: '' })} block>
                {t('device-type.mapping.addMapping')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
