import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DeviceTypeInput, deviceTypeApi, deviceTypeKeys } from '../api/device-type.api.ts';

/** Adds a private device type of the tenant: a CAN logger with its channel count or a plain IoT device. */
export function TypeFormDialog({ tenantId, open, onClose }: { tenantId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<DeviceTypeInput>();
  const kind = Form.useWatch('thing_type', form);
  const create = useMutation({
    mutationFn: (v: DeviceTypeInput) => deviceTypeApi.create(tenantId, { ...v, can_channels: v.thing_type === 1 ? 0 : v.can_channels }),
    onSuccess: () => {
      void message.success(t('device-type.form.saved'));
      void qc.invalidateQueries({ queryKey: deviceTypeKeys.all });
      form.resetFields();
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={t('device-type.form.title')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
    >
      <Form<DeviceTypeInput>
        form={form}
        name="device-type"
        layout="vertical"
        initialValues={{ thing_type: 0, can_channels: 2 }}
        onFinish={(v) => create.mutate(v)}
      >
        <Form.Item
          name="name"
          label={t('device-type.col.name')}
          rules={[
            { required: true, whitespace: true, message: t('device-type.form.nameRequired') },
            { max: 64, message: t('device-type.form.max64') },
          ]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="display_name" label={t('device-type.col.displayName')} rules={[{ max: 64, message: t('device-type.form.max64') }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="thing_type" label={t('device-type.col.kind')}>
          <Radio.Group
            options={[
              { value: 0, label: t('device-type.kind.can') },
              { value: 1, label: t('device-type.kind.iot') },
            ]}
          />
        </Form.Item>
        {kind !== 1 && (
          <Form.Item
            name="can_channels"
            label={t('device-type.col.channels')}
            rules={[{ required: true, type: 'integer', min: 0, max: 16 }]}
          >
            <InputNumber min={0} max={16} precision={0} />
          </Form.Item>
        )}
        <Form.Item name="description" label={t('device-type.col.description')} rules={[{ max: 256 }]}>
          <Input.TextArea rows={3} maxLength={256} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
