import { PlusOutlined } from '@ant-design/icons';
import {
  FEEDBACK_TYPES,
  WORK_ORDER_IMAGE_MAX_BYTES,
  WORK_ORDER_IMAGE_TYPES,
  WORK_ORDER_MAX_IMAGES,
  type WorkOrderCreate,
  WorkOrderCreateSchema,
  type WorkOrderDetail,
} from '@loggerhead/contract/schemas/workorder.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select, Upload, type UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { selfQuery } from '../../../session/session.queries.ts';
import { workOrderApi } from '../api/workorder.api.ts';
import { workOrderKeys } from '../api/workorder.queries.ts';

/** The console areas an order can be about (stored as the key, shown translated). */
export const BELONG_FUNCTIONS = [
  'home',
  'device',
  'car',
  'dbc',
  'ecu',
  'trigger',
  'fence',
  'test',
  'capacity',
  'account',
  'other',
] as const;

type Values = Omit<WorkOrderCreate, 'images'>;
const CREATABLE = FEEDBACK_TYPES.filter((f) => f !== 'capacity');

/** "New work order": name, feedback type, function, phone, description and up to five screenshots. */
export function CreateOrderDialog({
  tenantId,
  open,
  onClose,
  onCreated,
}: {
  tenantId: string;
  open: boolean;
  onClose: () => void;
  onCreated?: (o: WorkOrderDetail) => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const self = useQuery(selfQuery());
  const mobile = self.data?.mobile ?? null;

  // The contact phone starts as the user's own mobile (they can change it).
  useEffect(() => {
    if (open && mobile && !form.getFieldValue('phone')) form.setFieldValue('phone', mobile);
  }, [open, mobile, form]);

  const create = useMutation({
    mutationFn: (body: WorkOrderCreate) => workOrderApi.create(tenantId, body),
    meta: { silent: true },
    onSuccess: (o) => {
      void qc.invalidateQueries({ queryKey: workOrderKeys.lists() });
      void message.success(t('workorder.form.created', { id: o.identifier }));
      form.resetFields();
      setFiles([]);
      onCreated?.(o);
      onClose();
    },
    onError: (e) => {
      const field = e.errors[0]?.field;
      const text = errorText(e, t, (k) => i18n.exists(k));
      if (field && ['name', 'phone', 'description'].includes(field)) form.setFields([{ name: field as keyof Values, errors: [text] }]);
      else void message.error(text);
    },
  });

  const uploading = files.some((f) => f.status === 'uploading');
  const submit = (v: Values) => {
    const images = files.filter((f) => f.status === 'done').map((f) => (f.response as { id: string }).id);
    create.mutate({ ...v, belong_function: v.belong_function ?? '', images });
  };

  return (
    <Modal
      open={open}
      title={t('workorder.form.title')}
      okText={t('workorder.form.submit')}
      cancelText={t('common.action.cancel')}
      okButtonProps={{ disabled: uploading, 'data-testid': 'workorder-submit' } as { disabled: boolean }}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={640}
      forceRender
    >
      <Form<Values> form={form} name="workorder" layout="vertical" onFinish={submit} initialValues={{ feedback_type: 'question' }}>
        <Form.Item
          name="name"
          label={t('workorder.field.name')}
          rules={[
            { required: true, whitespace: true, message: t('workorder.form.nameRequired') },
            { max: 64, message: t('workorder.form.nameMax') },
          ]}
        >
          <Input placeholder={t('workorder.form.namePlaceholder')} maxLength={64} showCount />
        </Form.Item>
        <Form.Item name="feedback_type" label={t('workorder.field.feedbackType')} rules={[{ required: true }]}>
          <Select options={CREATABLE.map((f) => ({ value: f, label: t(`workorder.type.${f}`) }))} data-testid="workorder-type" />
        </Form.Item>
        <Form.Item name="belong_function" label={t('workorder.field.belongFunction')}>
          <Select
            allowClear
            placeholder={t('workorder.form.functionPlaceholder')}
            options={BELONG_FUNCTIONS.map((f) => ({ value: f, label: t(`workorder.function.${f}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('workorder.field.phone')}
          rules={[
            { required: true, message: t('workorder.form.phoneRequired') },
            {
              validator: (_r, v: string | undefined) =>
                !v || WorkOrderCreateSchema.shape.phone.safeParse(v).success
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('workorder.form.phoneFormat'))),
            },
          ]}
        >
          <Input placeholder={t('workorder.form.phonePlaceholder')} maxLength={21} />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('workorder.field.description')}
          rules={[
            { required: true, whitespace: true, message: t('workorder.form.descriptionRequired') },
            { max: 2000, message: t('workorder.form.descriptionMax') },
          ]}
        >
          <Input.TextArea rows={5} maxLength={2000} showCount placeholder={t('workorder.form.descriptionPlaceholder')} />
        </Form.Item>
        <Form.Item label={t('workorder.field.images')} extra={t('workorder.form.imagesHint', { n: WORK_ORDER_MAX_IMAGES })}>
          <Upload
            listType="picture-card"
            accept={WORK_ORDER_IMAGE_TYPES.join(',')}
            fileList={files}
            maxCount={WORK_ORDER_MAX_IMAGES}
            onChange={({ fileList }) => setFiles(fileList)}
            beforeUpload={(file) => {
              if (!(WORK_ORDER_IMAGE_TYPES as readonly string[]).includes(file.type)) {
                void message.error(t('workorder.form.imageType'));
                return Upload.LIST_IGNORE;
              }
              if (file.size > WORK_ORDER_IMAGE_MAX_BYTES) {
                void message.error(t('workorder.form.imageSize'));
                return Upload.LIST_IGNORE;
              }
              return true;
            }}
            customRequest={({ file, onSuccess, onError }) => {
              workOrderApi
                .uploadImage(tenantId, file as File)
                .then((img) => onSuccess?.(img))
                .catch((e: Error) => {
                  void message.error(errorText(e, t, (k) => i18n.exists(k)));
                  onError?.(e);
                });
            }}
          >
            {files.length < WORK_ORDER_MAX_IMAGES && (
              <div>
                <PlusOutlined />
                <div style={{ marginTop: 8 }}>{t('workorder.form.upload')}</div>
              </div>
            )}
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
