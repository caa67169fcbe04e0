import type { Label } from '@loggerhead/contract/schemas/org.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { type LabelInput, labelKeys, labelsApi } from '../../../api/labels.api.ts';

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a label to edit. */
  target: Label | 'new' | null;
  onClose: () => void;
}

/** Add or edit a label of the registry: its name, description and value (spec §3 label). */
export function LabelFormDialog({ tenantId, target, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<LabelInput>();
  const qc = useQueryClient();
  const editing = target !== null && target !== 'new' ? target : null;

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue(
      editing
        ? { label: editing.label, description: editing.description ?? '', label_value: editing.label_value ?? '' }
        : { label: '', description: '', label_value: '' },
    );
  }, [target, editing, form]);

  const save = useMutation({
    mutationFn: (body: LabelInput) => (editing ? labelsApi.update(tenantId, editing.id, body) : labelsApi.create(tenantId, body)),
    meta: { silent: true },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: labelKeys.all });
      void message.success(t('label.form.saved'));
      onClose();
    },
    onError: (e) => {
      const text = errorText(e, t, (k) => i18n.exists(k));
      if (e.errors[0]?.field === 'label') form.setFields([{ name: 'label', errors: [text] }]);
      else void message.error(text);
    },
  });

  return (
    <Modal
      open={target !== null}
      title={editing ? t('label.form.editTitle') : t('label.form.addTitle')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) =>
          save.mutate({ label: v.label.trim(), description: v.description?.trim() || null, label_value: v.label_value?.trim() || null })
        }
      >
        <Form.Item
          name="label"
          label={t('label.form.label')}
          rules={[
            { required: true, whitespace: true, message: t('label.form.labelRequired') },
            { max: 64, message: t('label.form.tooLong', { max: 64 }) },
          ]}
        >
          <Input data-testid="label-name" />
        </Form.Item>
        <Form.Item name="label_value" label={t('label.form.value')} rules={[{ max: 256, message: t('label.form.tooLong', { max: 256 }) }]}>
          <Input data-testid="label-default-value" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('label.form.description')}
          rules={[{ max: 256, message: t('label.form.tooLong', { max: 256 }) }]}
        >
          <Input.TextArea rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
