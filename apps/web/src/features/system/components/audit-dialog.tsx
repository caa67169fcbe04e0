import type { Tenant } from '@loggerhead/contract/schemas/tenant.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Checkbox, Descriptions, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { systemApi, systemKeys } from '../api/system.api.ts';

interface Values {
  notify: boolean;
  remark?: string;
}

/** Approve or reject one registration (spec §4: pass value plus notify flag). */
export function AuditDialog({ tenant, pass, onClose }: { tenant: Tenant | null; pass: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const audit = useMutation({
    mutationFn: (v: Values) => systemApi.audit((tenant as Tenant).id, pass, { notify: v.notify, remark: v.remark?.trim() || undefined }),
    onSuccess: () => {
      message.success(pass ? t('system.audit.approved') : t('system.audit.rejected'));
      void qc.invalidateQueries({ queryKey: systemKeys.tenants() });
      onClose();
    },
  });

  return (
    <Modal
      open={tenant !== null}
      title={pass ? t('system.audit.approveTitle', { name: tenant?.name }) : t('system.audit.rejectTitle', { name: tenant?.name })}
      okText={pass ? t('system.audit.approve') : t('system.audit.reject')}
      okButtonProps={{ danger: !pass, 'data-testid': 'audit-confirm' }}
      cancelText={t('common.action.cancel')}
      confirmLoading={audit.isPending}
      destroyOnHidden
      onOk={() => void form.validateFields().then((v) => audit.mutate(v))}
      onCancel={onClose}
    >
      {tenant && (
        <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('system.tenant.name')}>{tenant.name}</Descriptions.Item>
          <Descriptions.Item label={t('system.tenant.mobile')}>{tenant.mobile ?? '--'}</Descriptions.Item>
          <Descriptions.Item label={t('system.tenant.email')}>{tenant.email ?? '--'}</Descriptions.Item>
          <Descriptions.Item label={t('system.tenant.organization')}>{tenant.organization_name ?? '--'}</Descriptions.Item>
          <Descriptions.Item label={t('system.tenant.createdAt')}>{formatDateTime(tenant.created_at)}</Descriptions.Item>
        </Descriptions>
      )}
      <Form form={form} name="audit" layout="vertical" initialValues={{ notify: true }} preserve={false}>
        <Form.Item name="notify" valuePropName="checked">
          <Checkbox>{t('system.audit.notify')}</Checkbox>
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('system.audit.remark')}
          rules={pass ? [] : [{ required: true, whitespace: true, message: t('system.audit.remarkRequired') }]}
        >
          <Input.TextArea maxLength={256} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
