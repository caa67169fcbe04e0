import { DBC_DEFAULT_PROTOCOL, type DbcFile } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, InputNumber, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/api-error.ts';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys } from '../../../api/dbc.queries.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { DbcFileInput } from './dbc-file-input.tsx';
import { DbcParseError, type DbcParseProblem, parseProblemOf } from './dbc-parse-error.tsx';

interface Values {
  name?: string;
  protocol: number;
  file?: File | null;
}

/**
 * Upload a new DBC file, or replace / rename one (`target`). A file the server cannot parse comes
 * back with the line and column at fault, shown under the form; a taken name lands on its field.
 */
export function DbcUploadDialog({ tenantId, target, onClose }: { tenantId: string; target: DbcFile | 'new' | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [problem, setProblem] = useState<DbcParseProblem | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const editing = target && target !== 'new' ? target : null;

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(
      editing ? { name: editing.name, protocol: editing.protocol, file: null } : { protocol: DBC_DEFAULT_PROTOCOL, file: null },
    );
    setProblem(null);
    setGeneral(null);
  }, [target, editing, form]);

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) => {
      const fields = { name: v.name?.trim() || undefined, protocol: v.protocol };
      return editing ? dbcApi.update(tenantId, editing.id, v.file ?? null, fields) : dbcApi.upload(tenantId, v.file as File, fields);
    },
    onSuccess: (f) => {
      void message.success(editing ? t('dbc.upload.replaced', { name: f.name }) : t('dbc.upload.done', { name: f.name }));
      void qc.invalidateQueries({ queryKey: dbcKeys.all });
      onClose();
    },
    onError: (err) => {
      const p = parseProblemOf(err);
      setProblem(p);
      if (p) return setGeneral(null);
      const text = errorText(err, t, (k) => i18n.exists(k));
      const field = err instanceof ApiError ? err.errors[0]?.field : undefined;
      if (field === 'name') {
        form.setFields([{ name: 'name', errors: [text] }]);
        setGeneral(null);
      } else
        setGeneral(
          err instanceof ApiError && err.errors[0]?.code === 'mapping.unknown-signal' ? `${text}: ${err.errors[0].message}` : text,
        );
    },
  });

  return (
    <Modal
      open={Boolean(target)}
      title={editing ? t('dbc.upload.replaceTitle', { name: editing.name }) : t('dbc.upload.title')}
      okText={editing ? t('dbc.upload.save') : t('dbc.upload.submit')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="dbc-upload-dialog"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        name="dbc-upload"
        onValuesChange={(changed) => {
          if ('file' in changed) setProblem(null);
        }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="file"
          label={t('dbc.upload.file')}
          rules={editing ? [] : [{ required: true, message: t('dbc.upload.fileRequired') }]}
          extra={editing ? t('dbc.upload.keepFile') : undefined}
        >
          <DbcFileInput />
        </Form.Item>
        <Form.Item name="name" label={t('dbc.upload.name')} rules={[{ max: 128 }]} extra={editing ? undefined : t('dbc.upload.nameHint')}>
          <Input placeholder={t('dbc.upload.namePlaceholder')} maxLength={128} />
        </Form.Item>
        <Form.Item name="protocol" label={t('dbc.upload.protocol')} rules={[{ required: true, message: t('dbc.upload.protocolRequired') }]}>
          <InputNumber min={0} max={255} precision={0} style={{ width: 160 }} />
        </Form.Item>
      </Form>
      {problem && <DbcParseError problem={problem} />}
      {general && <Alert type="error" showIcon message={general} data-testid="dbc-upload-error" />}
    </Modal>
  );
}
