import { LockOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, Typography } from 'antd';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client.ts';
import { errorText } from '../../api/error-funnel.ts';

/**
 * Password re-confirmation before a dangerous action (spec §2 dialog, §5 "re-auth password
 * required", §8 "re-auth wrong password shows password error"). The password is checked by
 * POST /control/reauth; the action runs only after it answered yes.
 */
export function ReauthDialog({
  open,
  title,
  description,
  onConfirmed,
  onCancel,
}: {
  open: boolean;
  title?: string;
  description?: ReactNode;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const check = useMutation({
    meta: { silent: true },
    mutationFn: (password: string) => call(Routes.session.reauth, { body: { password } }),
    onSuccess: () => {
      form.resetFields();
      onConfirmed();
    },
    onError: (e) => form.setFields([{ name: 'password', errors: [errorText(e, t, (k) => i18n.exists(k))] }]),
  });

  return (
    <Modal
      open={open}
      title={title ?? t('widgets.reauth.title')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={check.isPending}
      destroyOnHidden
      onOk={() => void form.validateFields().then((v) => check.mutate(v.password))}
      onCancel={() => {
        form.resetFields();
        onCancel();
      }}
    >
      <Typography.Paragraph type="secondary">{description ?? t('widgets.reauth.text')}</Typography.Paragraph>
      <Form form={form} name="reauth" preserve={false} onFinish={(v) => check.mutate(v.password)}>
        <Form.Item name="password" rules={[{ required: true, message: t('widgets.reauth.required') }]}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('widgets.reauth.placeholder')}
            autoComplete="current-password"
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `const [confirm, dialog] = useReauth()`: render `dialog`, then `await confirm()` resolves
 * true once the password was confirmed, false when the user cancelled.
 */
export function useReauth(opts: { title?: string; description?: ReactNode } = {}): [() => Promise<boolean>, ReactNode] {
  const [open, setOpen] = useState(false);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const confirm = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setOpen(true);
      }),
    [],
  );
  const finish = (ok: boolean) => {
    setOpen(false);
    resolver.current?.(ok);
    resolver.current = null;
  };
  const dialog = (
    <ReauthDialog
      open={open}
      title={opts.title}
      description={opts.description}
      onConfirmed={() => finish(true)}
      onCancel={() => finish(false)}
    />
  );
  return [confirm, dialog];
}
