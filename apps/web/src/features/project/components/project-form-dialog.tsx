import type { Project } from '@loggerhead/contract/schemas/project.ts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { type ProjectInput, projectApi, projectKeys } from '../api/project.api.ts';

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a project to edit. */
  target: Project | 'new' | null;
  onClose: () => void;
}

/** Add or rename a project. */
export function ProjectFormDialog({ tenantId, target, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProjectInput>();
  const editing = target !== null && target !== 'new' ? target : null;
  return (
    <FormModal<ProjectInput>
      open={target !== null}
      title={editing ? t('project.form.editTitle') : t('project.form.addTitle')}
      form={form}
      record={editing}
      initial={editing ? { name: editing.name, description: editing.description ?? '' } : { name: '', description: '' }}
      submit={(v) => {
        const body = { name: v.name.trim(), description: v.description?.trim() || null };
        return editing ? projectApi.update(tenantId, editing.id, body) : projectApi.create(tenantId, body);
      }}
      invalidate={projectKeys.all}
      savedText={t('project.form.saved')}
      fields={['name']}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('project.form.name')}
        rules={[
          { required: true, whitespace: true, message: t('project.form.nameRequired') },
          { max: 64, message: t('project.form.tooLong', { max: 64 }) },
        ]}
      >
        <Input data-testid="project-name" />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('project.form.description')}
        rules={[{ max: 256, message: t('project.form.tooLong', { max: 256 }) }]}
      >
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormModal>
  );
}
