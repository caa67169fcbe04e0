import { type DataGroup, type DataGroupInput, FIELD_NAME_RE } from '@loggerhead/contract/schemas/device-type-schema.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { deviceTypeApi, deviceTypeKeys } from '../api/device-type.api.ts';

type Values = Required<DataGroupInput>;

/** Adds or renames a data group (its name follows the field-name rule: it becomes a key in device data). */
export function GroupDialog({
  tenantId,
  typeId,
  group,
  open,
  onClose,
}: {
  tenantId: string;
  typeId: string;
  group: DataGroup | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (open) form.setFieldsValue(group ?? { name: '', display_name: '', description: '', sort: 0 });
  }, [open, group, form]);
  const save = useMutation({
    mutationFn: (v: Values) =>
      group ? deviceTypeApi.updateGroup(tenantId, typeId, group.id, v) : deviceTypeApi.createGroup(tenantId, typeId, v),
    meta: { silent: true },
    onSuccess: () => {
      void message.success(t('device-type.form.saved'));
      void qc.invalidateQueries({ queryKey: deviceTypeKeys.schema(tenantId, typeId) });
      onClose();
    },
    onError: (e) => {
      const text = errorText(e, t, (k) => i18n.exists(k));
      if (e.errors[0]?.field === 'name') form.setFields([{ name: 'name', errors: [text] }]);
      else void message.error(text);
    },
  });
  return (
    <Modal
      open={open}
      title={group ? t('device-type.group.editTitle') : t('device-type.group.addTitle')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
    >
      <Form<Values> form={form} name="data-group" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="name"
          label={t('device-type.group.name')}
          rules={[
            { required: true, message: t('device-type.field.nameRequired') },
            { pattern: FIELD_NAME_RE, message: t('device-type.field.nameRule') },
            { max: 64, message: t('device-type.form.max64') },
          ]}
        >
          <Input maxLength={64} className="lh-mono" />
        </Form.Item>
        <Form.Item name="display_name" label={t('device-type.group.displayName')} rules={[{ max: 64 }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="description" label={t('device-type.col.description')} rules={[{ max: 256 }]}>
          <Input.TextArea rows={2} maxLength={256} />
        </Form.Item>
        <Form.Item name="sort" label={t('device-type.group.sort')} rules={[{ type: 'integer', min: 0, max: 10000 }]}>
          <InputNumber min={0} max={10000} precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
