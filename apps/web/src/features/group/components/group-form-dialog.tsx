import type { Group } from '@loggerhead/contract/schemas/org.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { type GroupInput, groupApi, groupKeys } from '../api/group.api.ts';

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a group to edit. */
  target: Group | 'new' | null;
  onClose: () => void;
}

/** Add or rename a device group. */
export function GroupFormDialog({ tenantId, target, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<GroupInput>();
  const qc = useQueryClient();
  const editing = target !== null && target !== 'new' ? target : null;

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue(editing ? { name: editing.name, description: editing.description ?? '' } : { name: '', description: '' });
  }, [target, editing, form]);

  const save = useMutation({
    mutationFn: (body: GroupInput) => (editing ? groupApi.update(tenantId, editing.id, body) : groupApi.create(tenantId, body)),
    meta: { silent: true },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: groupKeys.all });
      void message.success(t('group.form.saved'));
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
      open={target !== null}
      title={editing ? t('group.form.editTitle') : t('group.form.addTitle')}
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
        onFinish={(v) => save.mutate({ name: v.name.trim(), description: v.description?.trim() || null })}
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
      </Form>
    </Modal>
  );
}
