import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { FunctionBlock } from '@loggerhead/contract/schemas/models.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Checkbox, Divider, Flex, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { type FunctionBlockBody, modelApi, modelKeys } from '../api/model.api.ts';
import { VALUE_TYPE_KEYS } from './typed-value.tsx';

interface PropRow {
  identifier: string;
  name: string;
  data_type: 1 | 2 | 4 | 5 | 7;
  read_only?: boolean;
  required?: boolean;
}
interface Values {
  name: string;
  display_name: string;
  description?: string;
  status: PropRow[];
  operations: { identifier: string; name: string; params: PropRow[] }[];
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Adds or edits a function block: its status properties and its operations with typed parameters. */
export function FunctionBlockDialog({ tenantId, block, onClose }: { tenantId: string; block: FunctionBlock | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const typeOptions = Object.entries(VALUE_TYPE_KEYS).map(([k, v]) => ({ value: Number(k), label: t(`device-type.model.type.${v}`) }));
  const save = useMutation({
    mutationFn: (v: Values) => {
      const body: FunctionBlockBody = {
        name: v.name,
        display_name: v.display_name,
        description: v.description ?? '',
        json_schema: {
          events: block?.json_schema.events ?? [],
          configuration: block?.json_schema.configuration ?? [],
          status: (v.status ?? []).map((p) => ({ ...p, read_only: !!p.read_only })),
          operations: (v.operations ?? []).map((o) => ({
            identifier: o.identifier,
            name: o.name,
            params: (o.params ?? []).map((p) => ({ ...p, required: !!p.required })),
          })),
        },
      };
      return block ? modelApi.updateBlock(tenantId, block.id, body) : modelApi.createBlock(tenantId, body);
    },
    onSuccess: () => {
      message.success(t('device-type.model.saved'));
      void qc.invalidateQueries({ queryKey: modelKeys.all });
      onClose();
    },
  });
  const identRule = { pattern: IDENT, message: t('device-type.model.block.identifierRule') };

  return (
    <Modal
      title={block ? t('device-type.model.block.edit') : t('device-type.model.block.add')}
      open
      width={760}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'block-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={
          block
            ? { ...block, status: block.json_schema.status, operations: block.json_schema.operations as Values['operations'] }
            : { status: [], operations: [] }
        }
        onFinish={(v) => save.mutate(v)}
      >
        <Flex gap={12}>
          <Form.Item name="name" label={t('device-type.model.block.name')} rules={[{ required: true }, identRule]} style={{ flex: 1 }}>
            <Input data-testid="block-name" />
          </Form.Item>
          <Form.Item name="display_name" label={t('device-type.model.block.displayName')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Input data-testid="block-display-name" />
          </Form.Item>
        </Flex>
        <Form.Item name="description" label={t('device-type.model.block.description')}>
          <Input />
        </Form.Item>
        <Divider titlePlacement="start">{t('device-type.model.block.status')}</Divider>
        <Form.List name="status">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Flex key={f.key} gap={8} align="baseline">
                  <Form.Item name={[f.name, 'identifier']} rules={[{ required: true }, identRule]}>
                    <Input placeholder={t('device-type.model.prop.identifier')} data-testid={`prop-identifier-${f.name}`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'name']} rules={[{ required: true }]}>
                    <Input placeholder={t('device-type.model.prop.name')} data-testid={`prop-name-${f.name}`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'data_type']} rules={[{ required: true }]}>
                    <Select options={typeOptions} style={{ width: 120 }} data-testid={`prop-type-${f.name}`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'read_only']} valuePropName="checked">
                    <Checkbox>{t('device-type.model.prop.readOnly')}</Checkbox>
                  </Form.Item>
                  <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('device-type.model.remove')} />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ data_type: 1 })} data-testid="add-prop">
                {t('device-type.model.block.addProp')}
              </Button>
            </>
          )}
        </Form.List>
        <Divider titlePlacement="start">{t('device-type.model.block.operations')}</Divider>
        <Form.List name="operations">
          {(ops, { add, remove }) => (
            <>
              {ops.map((o) => (
                <div key={o.key} style={{ border: '1px solid #f0f0f0', padding: 8, marginBottom: 8 }}>
                  <Flex gap={8} align="baseline">
                    <Form.Item name={[o.name, 'identifier']} rules={[{ required: true }, identRule]}>
                      <Input placeholder={t('device-type.model.prop.identifier')} data-testid={`op-identifier-${o.name}`} />
                    </Form.Item>
                    <Form.Item name={[o.name, 'name']} rules={[{ required: true }]}>
                      <Input placeholder={t('device-type.model.prop.name')} data-testid={`op-name-${o.name}`} />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(o.name)} aria-label={t('device-type.model.remove')} />
                  </Flex>
                  <Form.List name={[o.name, 'params']}>
                    {(ps, pm) => (
                      <>
                        {ps.map((p) => (
                          <Flex key={p.key} gap={8} align="baseline" style={{ marginLeft: 24 }}>
                            <Form.Item name={[p.name, 'identifier']} rules={[{ required: true }, identRule]}>
                              <Input placeholder={t('device-type.model.op.param')} data-testid={`op-${o.name}-param-${p.name}`} />
                            </Form.Item>
                            <Form.Item name={[p.name, 'name']} rules={[{ required: true }]}>
                              <Input placeholder={t('device-type.model.prop.name')} data-testid={`op-${o.name}-param-name-${p.name}`} />
                            </Form.Item>
                            <Form.Item name={[p.name, 'data_type']} rules={[{ required: true }]}>
                              <Select options={typeOptions} style={{ width: 120 }} />
                            </Form.Item>
                            <Form.Item name={[p.name, 'required']} valuePropName="checked">
                              <Checkbox>{t('device-type.model.prop.required')}</Checkbox>
                            </Form.Item>
                            <MinusCircleOutlined onClick={() => pm.remove(p.name)} aria-label={t('device-type.model.remove')} />
                          </Flex>
                        ))}
                        <Button size="small" type="link" icon={<PlusOutlined />} onClick={() => pm.add({ data_type: 1 })}>
                          {t('device-type.model.op.addParam')}
                        </Button>
                      </>
                    )}
                  </Form.List>
                </div>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ params: [] })} data-testid="add-op">
                {t('device-type.model.block.addOp')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
