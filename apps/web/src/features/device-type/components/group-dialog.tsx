import { type DataGroup, type DataGroupInput, FIELD_NAME_RE } from '@loggerhead/contract/schemas/device-type-schema.ts';
import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
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
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  return (
    <FormModal<Values>
      open={open}
      title={group ? t('device-type.group.editTitle') : t('device-type.group.addTitle')}
      form={form}
      name="data-group"
      record={group}
      initial={group ?? { name: '', display_name: '', description: '', sort: 0 }}
      submit={(v) => (group ? deviceTypeApi.updateGroup(tenantId, typeId, group.id, v) : deviceTypeApi.createGroup(tenantId, typeId, v))}
      invalidate={deviceTypeKeys.schema(tenantId, typeId)}
      savedText={t('device-type.form.saved')}
      fields={['name']}
      onClose={onClose}
    >
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
    </FormModal>
  );
}
