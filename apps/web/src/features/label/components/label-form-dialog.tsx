import type { Label } from '@loggerhead/contract/schemas/org.ts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { type LabelInput, labelKeys, labelsApi } from '../../../api/labels.api.ts';
import { FormModal } from '../../../components/form-modal.tsx';

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a label to edit. */
  target: Label | 'new' | null;
  onClose: () => void;
}

/** Add or edit a label of the registry: its name, description and value (spec §3 label). */
export function LabelFormDialog({ tenantId, target, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LabelInput>();
  const editing = target !== null && target !== 'new' ? target : null;
  const tooLong = (max: number) => ({ max, message: t('label.form.tooLong', { max }) });
  return (
    <FormModal<LabelInput>
      open={target !== null}
      title={editing ? t('label.form.editTitle') : t('label.form.addTitle')}
      form={form}
      record={editing}
      initial={
        editing
          ? { label: editing.label, description: editing.description ?? '', label_value: editing.label_value ?? '' }
          : { label: '', description: '', label_value: '' }
      }
      submit={(v) => {
        const body = { label: v.label.trim(), description: v.description?.trim() || null, label_value: v.label_value?.trim() || null };
        return editing ? labelsApi.update(tenantId, editing.id, body) : labelsApi.create(tenantId, body);
      }}
      invalidate={labelKeys.all}
      savedText={t('label.form.saved')}
      fields={['label']}
      onClose={onClose}
    >
      <Form.Item
        name="label"
        label={t('label.form.label')}
        rules={[{ required: true, whitespace: true, message: t('label.form.labelRequired') }, tooLong(64)]}
      >
        <Input data-testid="label-name" />
      </Form.Item>
      <Form.Item name="label_value" label={t('label.form.value')} rules={[tooLong(256)]}>
        <Input data-testid="label-default-value" />
      </Form.Item>
      <Form.Item name="description" label={t('label.form.description')} rules={[tooLong(256)]}>
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormModal>
  );
}
