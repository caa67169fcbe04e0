import { MAX_PLUGIN_EXPRESSION, PLUGIN_TYPES, type Plugin } from '@loggerhead/contract/schemas/plugins.ts';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { type PluginBody, pluginApi, pluginKeys } from '../api/plugin.api.ts';

interface Values {
  name: string;
  type: 'transform' | 'export';
  expression: string;
  description?: string;
  header?: string;
  file_extension?: string;
}

export function bodyOf(v: Values): PluginBody {
  const exp = v.type === 'export';
  return {
    name: v.name.trim(),
    type: v.type,
    expression: v.expression.trim(),
    description: v.description?.trim() || null,
    header: exp ? v.header?.trim() || null : null,
    file_extension: exp ? v.file_extension?.trim() || null : null,
  };
}

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a plugin to edit. */
  target: Plugin | 'new' | null;
  onClose: () => void;
}

/** Add or edit a data plugin: its name, type and JSONata expression (checked by the server when saved). */
export function PluginDialog({ tenantId, target, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const editing = target !== null && target !== 'new' ? target : null;
  const type = Form.useWatch('type', form);
  return (
    <FormModal<Values>
      open={target !== null}
      title={editing ? t('plugin.form.editTitle') : t('plugin.form.addTitle')}
      form={form}
      record={editing}
      width={640}
      name="plugin"
      initial={
        editing
          ? {
              name: editing.name,
              type: editing.type,
              expression: editing.expression,
              description: editing.description ?? '',
              header: editing.header ?? '',
              file_extension: editing.file_extension ?? '',
            }
          : { name: '', type: 'transform', expression: '', description: '', header: '', file_extension: '' }
      }
      submit={(v) => (editing ? pluginApi.update(tenantId, editing.id, bodyOf(v)) : pluginApi.create(tenantId, bodyOf(v)))}
      invalidate={pluginKeys.all}
      savedText={t('plugin.form.saved')}
      fields={['name', 'expression', 'type']}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('plugin.form.name')}
        rules={[{ required: true, whitespace: true, message: t('plugin.form.nameRequired') }, { max: 64 }]}
      >
        <Input data-testid="plugin-name" />
      </Form.Item>
      <Form.Item name="type" label={t('plugin.form.type')}>
        <Radio.Group optionType="button" options={PLUGIN_TYPES.map((v) => ({ value: v, label: t(`plugin.type.${v}`) }))} />
      </Form.Item>
      <Form.Item
        name="expression"
        label={t('plugin.form.expression')}
        extra={type === 'export' ? t('plugin.form.exportHelp') : t('plugin.form.transformHelp')}
        rules={[
          { required: true, whitespace: true, message: t('plugin.form.expressionRequired') },
          { max: MAX_PLUGIN_EXPRESSION, message: t('plugin.form.tooLong', { max: MAX_PLUGIN_EXPRESSION }) },
        ]}
      >
        <Input.TextArea rows={6} spellCheck={false} style={{ fontFamily: 'monospace' }} data-testid="plugin-expression" />
      </Form.Item>
      {type === 'export' && (
        <>
          <Form.Item name="header" label={t('plugin.form.header')} rules={[{ max: 1024 }]}>
            <Input placeholder="time,id,data" />
          </Form.Item>
          <Form.Item
            name="file_extension"
            label={t('plugin.form.extension')}
            rules={[{ pattern: /^[A-Za-z0-9]{1,10}$/, message: t('plugin.form.extensionBad') }]}
          >
            <Input placeholder="txt" style={{ width: 160 }} />
          </Form.Item>
        </>
      )}
      <Form.Item name="description" label={t('plugin.form.description')} rules={[{ max: 256 }]}>
        <Input />
      </Form.Item>
    </FormModal>
  );
}
