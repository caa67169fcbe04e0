import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, type ButtonProps, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceTypeKeys } from '../api/device-type.api.ts';
import { blocksQuery, modelApi, modelKeys, publicBlocksQuery } from '../api/model.api.ts';

interface Values {
  name: string;
  display_name?: string;
  description?: string;
  thing_type: number;
  can_channels?: number;
  info_model_fn_blocks: string[];
}

/** Adds an info model of the tenant from its own and the public function blocks. */
export function InfoModelDialog({ tenantId, open, onClose }: { tenantId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const own = useQuery(blocksQuery(tenantId));
  const pub = useQuery(publicBlocksQuery());
  const kind = Form.useWatch('thing_type', form);
  const options = [
    ...(own.data?.list ?? []).map((b) => ({ value: b.id, label: `${b.display_name} (${b.name})` })),
    ...(pub.data?.list ?? []).map((b) => ({ value: b.id, label: `${b.display_name} (${b.name}) · ${t('device-type.scope.public')}` })),
  ];
  const save = useMutation({
    mutationFn: (v: Values) =>
      modelApi.createModel(tenantId, {
        name: v.name,
        display_name: v.display_name || null,
        description: v.description || null,
        thing_type: v.thing_type,
        can_channels: v.thing_type === 0 ? (v.can_channels ?? 2) : 0,
        info_model_fn_blocks: v.info_model_fn_blocks ?? [],
      }),
    onSuccess: () => {
      message.success(t('device-type.model.saved'));
      void qc.invalidateQueries({ queryKey: modelKeys.all });
      void qc.invalidateQueries({ queryKey: deviceTypeKeys.all });
      onClose();
    },
  });
  return (
    <Modal
      title={t('device-type.model.model.add')}
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'model-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ thing_type: 1, info_model_fn_blocks: [] }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="name" label={t('device-type.col.name')} rules={[{ required: true, whitespace: true }]}>
          <Input data-testid="model-name" maxLength={64} />
        </Form.Item>
        <Form.Item name="display_name" label={t('device-type.col.displayName')}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="thing_type" label={t('device-type.col.kind')}>
          <Select
            options={[
              { value: 1, label: t('device-type.kind.iot') },
              { value: 0, label: t('device-type.kind.can') },
            ]}
          />
        </Form.Item>
        {kind === 0 && (
          <Form.Item name="can_channels" label={t('device-type.col.channels')}>
            <InputNumber min={0} max={16} />
          </Form.Item>
        )}
        <Form.Item name="info_model_fn_blocks" label={t('device-type.model.model.blocks')}>
          <Select mode="multiple" options={options} data-testid="model-blocks" optionFilterProp="label" />
        </Form.Item>
        <Form.Item name="description" label={t('device-type.col.description')}>
          <Input.TextArea maxLength={256} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
