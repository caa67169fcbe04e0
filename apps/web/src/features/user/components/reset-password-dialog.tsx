import { passwordProblem, type SubUser } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '../../../components/widgets/use-server-errors.ts';
import { userApi } from '../api/user.api.ts';
import { initialPasswordOf } from './subuser-form.ts';

/** Resets a sub-user's password: to a given one, or (left empty) to the last 8 digits of its mobile (spec §6). */
export function ResetPasswordDialog({ user, tenantId, onClose }: { user: SubUser | null; tenantId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password?: string }>();
  const errors = useServerErrors();
  const reset = useMutation({
    meta: { silent: true },
    mutationFn: (password?: string) => userApi.resetSubUserPassword(tenantId as string, (user as SubUser).id, password || undefined),
    onSuccess: () => {
      message.success(t('user.subusers.resetDone'));
      onClose();
    },
    onError: (e) => errors.show(form, e, ['password']),
  });
  return (
    <Modal
      open={user !== null}
      title={t('user.subusers.resetTitle', { name: user?.username })}
      okText={t('user.subusers.reset')}
      cancelText={t('common.action.cancel')}
      confirmLoading={reset.isPending}
      destroyOnHidden
      onOk={() =>
        void form.validateFields().then(
          (v) => reset.mutate(v.password),
          () => {},
        )
      }
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        {t('user.subusers.resetText', { initial: user?.mobile ? initialPasswordOf(user.mobile) : '--' })}
      </Typography.Paragraph>
      {errors.general && <Typography.Text type="danger">{errors.general}</Typography.Text>}
      <Form form={form} name="reset-subuser-password" layout="vertical" preserve={false}>
        <Form.Item
          name="password"
          label={t('user.subusers.newPassword')}
          rules={[
            {
              validator: async (_r, v: unknown) => {
                const code = typeof v === 'string' && v ? passwordProblem(v) : null;
                if (code) throw new Error(t(`errors.${code}`));
              },
            },
          ]}
        >
          <Input.Password maxLength={32} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
