import { EDGE_AGGREGATES, type EdgeRule } from '@loggerhead/contract/schemas/edge.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, type ButtonProps, Flex, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { modelBlocksQuery, modelsQuery, publicModelsQuery } from '../api/model.api.ts';
import { type EdgeRuleBody, rulesApi } from '../api/rules.api.ts';

interface Values {
  name: string;
  description?: string;
  info_model_id: string;
  field: string;
  kind: 'filter' | 'aggregate';
  threshold?: number;
  function?: (typeof EDGE_AGGREGATES)[number];
  window_s?: number;
}

/**
 * Adds or edits an edge-computing rule (decision 0155): on one numeric status property of a model,
 * a filter (upload only when it moved by more than a threshold) or an aggregate (mean, min or max
 * over a window instead of each value).
 */
export function EdgeRuleDialog({ tenantId, rule, onClose }: { tenantId: string; rule: EdgeRule | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const own = useQuery(modelsQuery(tenantId));
  const pub = useQuery(publicModelsQuery());
  const modelId = Form.useWatch('info_model_id', form) ?? rule?.info_model_id ?? '';
  const kind = Form.useWatch('kind', form) ?? rule?.kind ?? 'filter';
  const blocks = useQuery(modelBlocksQuery(tenantId, modelId));
  const fields = (blocks.data ?? []).flatMap((b) =>
    b.json_schema.status
      .filter((p) => p.data_type === 1)
      .map((p) => ({ value: `${b.name}.${p.identifier}`, label: `${b.name}.${p.identifier} (${p.name})` })),
  );
  const modelOptions = [...(own.data?.list ?? []), ...(pub.data?.list ?? [])].map((m) => ({
    value: m.id,
    label: m.display_name ? `${m.display_name} (${m.name})` : m.name,
  }));
  const save = useMutation({
    mutationFn: (body: EdgeRuleBody) => (rule ? rulesApi.updateEdge(tenantId, rule.id, body) : rulesApi.createEdge(tenantId, body)),
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
      field: v.field,
      kind: v.kind,
      ...(v.kind === 'filter' ? { threshold: v.threshold } : { function: v.function, window_s: v.window_s }),
    });

  return (
    <Modal
      open
      width={640}
      title={t(rule ? 'device-type.edge.edit' : 'device-type.edge.add')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'edge-save' } as ButtonProps}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={
          rule
            ? {
                ...rule,
                threshold: rule.threshold ?? undefined,
                function: rule.function ?? 'mean',
                window_s: rule.window_s ?? 60,
              }
            : { kind: 'filter', function: 'mean', window_s: 60 }
        }
      >
        <Form.Item name="name" label={t('device-type.edge.name')} rules={[{ required: true, whitespace: true, max: 64 }]}>
          <Input data-testid="edge-name" />
        </Form.Item>
        <Flex gap={12}>
          <Form.Item name="info_model_id" label={t('device-type.rule.model')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Select
              options={modelOptions}
              showSearch
              optionFilterProp="label"
              data-testid="edge-model"
              onChange={() => form.setFieldValue('field', undefined)}
            />
          </Form.Item>
          <Form.Item name="field" label={t('device-type.edge.field')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Select options={fields} data-testid="edge-field" notFoundContent={t('device-type.edge.noNumeric')} />
          </Form.Item>
        </Flex>
        <Form.Item name="kind" label={t('device-type.edge.kind')}>
          <Radio.Group
            options={[
              { value: 'filter', label: t('device-type.edge.kinds.filter') },
              { value: 'aggregate', label: t('device-type.edge.kinds.aggregate') },
            ]}
          />
        </Form.Item>
        {kind === 'filter' ? (
          <Form.Item
            name="threshold"
            label={t('device-type.edge.threshold')}
            extra={t('device-type.edge.thresholdHelp')}
            rules={[{ required: true, type: 'number', min: Number.MIN_VALUE }]}
          >
            <InputNumber min={0} style={{ width: 200 }} data-testid="edge-threshold" />
          </Form.Item>
        ) : (
          <Flex gap={12}>
            <Form.Item name="function" label={t('device-type.edge.function')}>
              <Select
                style={{ width: 160 }}
                options={EDGE_AGGREGATES.map((f) => ({ value: f, label: t(`device-type.edge.functions.${f}`) }))}
              />
            </Form.Item>
            <Form.Item name="window_s" label={t('device-type.edge.window')} rules={[{ required: true }]}>
              <InputNumber min={1} max={86_400} addonAfter="s" style={{ width: 180 }} />
            </Form.Item>
          </Flex>
        )}
        <Form.Item name="description" label={t('device-type.mapping.description')}>
          <Input maxLength={256} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
