import { DEVICE_ID_RE, type DeviceType, type Thing } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { type NewDevice, thingsApi } from '../../../api/things.api.ts';
import { thingKeys } from '../../../api/things.queries.ts';

interface Props {
  open: boolean;
  tenantId: string;
  types: DeviceType[];
  onClose: () => void;
  /** The device as created, with its things_key (shown next). */
  onCreated: (thing: Thing) => void;
}

/** Spec §5: device ID 20 upper-case hex, name and type required; a taken ID shows the server's things.duplicate-id. */
export function AddDeviceDialog({ open, tenantId, types, onClose, onCreated }: Props) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<NewDevice>();
  const qc = useQueryClient();
  // Types may arrive after the form was built: preselect the first one once they do.
  useEffect(() => {
    if (open && types.length && !form.getFieldValue('info_model_id')) form.setFieldValue('info_model_id', types[0].id);
  }, [open, types, form]);

  const create = useMutation({
    mutationFn: (body: NewDevice) => thingsApi.create(tenantId, body),
    meta: { silent: true },
    onSuccess: (thing) => {
      void qc.invalidateQueries({ queryKey: thingKeys.devices() });
      form.resetFields();
      onCreated(thing);
    },
    onError: (e) => {
      const field = e.errors[0]?.field;
      const text = errorText(e, t, (k) => i18n.exists(k));
      const name = field === 'name' || field === 'info_model_id' ? field : 'third_things_id';
      form.setFields([{ name, errors: [text] }]);
    },
  });

  return (
    <Modal
      open={open}
      title={t('home.add.title')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<NewDevice>
        form={form}
        layout="vertical"
        name="add-device"
        onFinish={(v) => create.mutate({ ...v, description: v.description?.trim() || null })}
      >
        <Form.Item
          name="third_things_id"
          label={t('home.add.id')}
          normalize={(v: string) => v?.toUpperCase().replace(/\s/g, '')}
          rules={[
            { required: true, message: t('home.add.idRequired') },
            { pattern: DEVICE_ID_RE, message: t('home.add.idFormat') },
          ]}
        >
          <Input placeholder={t('home.add.idPlaceholder')} maxLength={20} showCount style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('home.add.name')}
          rules={[{ required: true, whitespace: true, message: t('home.add.nameRequired') }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="info_model_id" label={t('home.add.type')} rules={[{ required: true, message: t('home.add.typeRequired') }]}>
          <Select options={types.map((ty) => ({ value: ty.id, label: ty.display_name || ty.name }))} />
        </Form.Item>
        <Form.Item name="description" label={t('home.add.description')}>
          <Input.TextArea maxLength={256} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
