import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Radio, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firmwareApi } from '../api/firmware.api.ts';
import { remoteKeys } from '../api/remote.queries.ts';
import { isFirmwareVersion } from '../lib/firmware-rules.ts';

interface Values {
  version: string;
  description?: string;
  type: 'self' | 'outer';
}

/** Upload a firmware image for the device's model (spec §5: version xx.xx.xx, model, description, type). */
export function FirmwareUploadDialog({
  open,
  tenantId,
  modelId,
  modelName,
  onClose,
}: {
  open: boolean;
  tenantId: string;
  modelId: string;
  modelName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: (v: Values) => firmwareApi.upload(tenantId, { ...v, model_id: modelId, file: file as File }),
    onSuccess: () => {
      message.success(t('remote.firmware.uploaded'));
      client.invalidateQueries({ queryKey: remoteKeys.all });
      form.resetFields();
      setFile(null);
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={t('remote.firmware.upload')}
      onCancel={onClose}
      destroyOnHidden
      okText={t('remote.firmware.upload')}
      okButtonProps={{ loading: upload.isPending }}
      onOk={async () => {
        const v = await form.validateFields().catch(() => null);
        if (!v) return;
        if (file) upload.mutate(v);
        else message.error(t('errors.firmware.no-file'));
      }}
    >
      <Form form={form} layout="vertical" initialValues={{ type: 'self' }} preserve={false}>
        <Form.Item label={t('remote.firmware.model')}>
          <Input value={modelName} disabled />
        </Form.Item>
        <Form.Item
          name="version"
          label={t('remote.firmware.version')}
          rules={[
            { required: true, message: t('errors.firmware.bad-version') },
            {
              validator: (_r, v: string | undefined) =>
                !v || isFirmwareVersion(v) ? Promise.resolve() : Promise.reject(t('errors.firmware.bad-version')),
            },
          ]}
        >
          <Input placeholder="01.02.03" />
        </Form.Item>
        <Form.Item name="type" label={t('remote.firmware.type')}>
          <Radio.Group>
            <Radio value="self">{t('remote.firmware.type.self')}</Radio>
            <Radio value="outer">{t('remote.firmware.type.outer')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="description" label={t('remote.firmware.description')} rules={[{ max: 1000 }]}>
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
        <Form.Item label={t('remote.firmware.file')} required help={file ? file.name : undefined}>
          <Upload
            maxCount={1}
            showUploadList={false}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />}>{t('remote.firmware.choose')}</Button>
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
