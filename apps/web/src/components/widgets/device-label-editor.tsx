import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Label } from '@loggerhead/contract/schemas/org.ts';
import type { ThingLabel } from '@loggerhead/contract/schemas/things.ts';
import { Button, Empty, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  labels: readonly ThingLabel[];
  registry: readonly Label[] | undefined;
  saving?: boolean;
  onSave: (labels: ThingLabel[]) => void;
  onClose: () => void;
}

interface Row {
  tenantLabelId?: string;
  labelValue?: string;
}

/**
 * The device label editor (spec §2 widget): each row picks a label of the tenant's registry (each
 * once) and gives the device's value of it, starting from the label's own value.
 */
export function DeviceLabelEditor({ open, labels, registry, saving, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ rows: Row[] }>();
  const rows = Form.useWatch('rows', form) ?? [];

  useEffect(() => {
    if (open) form.setFieldsValue({ rows: labels.map((l) => ({ tenantLabelId: l.tenantLabelId, labelValue: l.labelValue })) });
  }, [open, labels, form]);

  const used = new Set(rows.map((r) => r?.tenantLabelId).filter(Boolean));
  const defaultValue = (id: string) => registry?.find((l) => l.id === id)?.label_value ?? '';

  return (
    <Modal
      open={open}
      title={t('widgets.labels.title')}
      okText={t('widgets.labels.save')}
      cancelText={t('widgets.labels.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={560}
      forceRender
      destroyOnHidden
    >
      <Form
        form={form}
        onFinish={(v) =>
          onSave(
            (v.rows ?? [])
              .filter((r): r is Required<Row> => Boolean(r?.tenantLabelId))
              .map((r) => {
                const before = labels.find((l) => l.tenantLabelId === r.tenantLabelId);
                return {
                  tenantLabelId: r.tenantLabelId,
                  labelValue: r.labelValue ?? '',
                  ...(before?.description ? { description: before.description } : {}),
                };
              }),
          )
        }
      >
        <Form.List name="rows">
          {(fields, { add, remove }) => (
            <>
              {fields.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('widgets.labels.none')} />}
              {fields.map((f) => (
                <Flex key={f.key} gap={8} align="start">
                  <Form.Item
                    name={[f.name, 'tenantLabelId']}
                    rules={[{ required: true, message: t('widgets.labels.pick') }]}
                    style={{ flex: 1 }}
                  >
                    <Select
                      showSearch
                      optionFilterProp="label"
                      placeholder={t('widgets.labels.label')}
                      aria-label={t('widgets.labels.label')}
                      data-testid="label-pick"
                      options={(registry ?? []).map((l) => ({
                        value: l.id,
                        label: l.label,
                        disabled: used.has(l.id) && rows[f.name]?.tenantLabelId !== l.id,
                      }))}
                      onChange={(id: string) => {
                        if (!form.getFieldValue(['rows', f.name, 'labelValue']))
                          form.setFieldValue(['rows', f.name, 'labelValue'], defaultValue(id));
                      }}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'labelValue']} rules={[{ max: 256 }]} style={{ flex: 1 }}>
                    <Input placeholder={t('widgets.labels.value')} aria-label={t('widgets.labels.value')} data-testid="label-value" />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} aria-label={t('widgets.labels.remove')} onClick={() => remove(f.name)} />
                </Flex>
              ))}
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                disabled={(registry?.length ?? 0) <= fields.length}
                onClick={() => add({})}
                data-testid="label-add"
              >
                {t('widgets.labels.add')}
              </Button>
              {registry?.length === 0 && (
                <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                  {t('widgets.labels.emptyRegistry')}
                </Typography.Paragraph>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
