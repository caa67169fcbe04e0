import type { Group } from '@loggerhead/contract/schemas/org.ts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { type GroupInput, groupApi, groupKeys } from '../api/group.api.ts';

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a group to edit. */
  target: Group | 'new' | null;
  onClose: () => void;
}

/** Add or rename a device group. */
export function GroupFormDialog({ tenantId, target, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<GroupInput>();
  const editing = target !== null && target !== 'new' ? target : null;
  return (
    <FormModal<GroupInput>
      open={target !== null}
      title={editing ? t('group.form.editTitle') : t('group.form.addTitle')}
      form={form}
      record={editing}
      initial={editing ? { name: editing.name, description: editing.description ?? '' } : { name: '', description: '' }}
      submit={(v) => {
        const body = { name: v.name.trim(), description: v.description?.trim() || null };
        return editing ? groupApi.update(tenantId, editing.id, body) : groupApi.create(tenantId, body);
      }}
      invalidate={groupKeys.all}
      savedText={t('group.form.saved')}
      fields={['name']}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('group.form.name')}
        rules={[
          { required: true, whitespace: true, message: t('group.form.nameRequired') },
          { max: 64, message: t('group.form.tooLong', { max: 64 }) },
        ]}
      >
        <Input data-testid="group-name" />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('group.form.description')}
        rules={[{ max: 256, message: t('group.form.tooLong', { max: 256 }) }]}
      >
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormModal>
  );
}
