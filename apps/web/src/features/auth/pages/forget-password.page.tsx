import { DEFAULT_AREA_CODE } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Result, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { rules } from '../../../components/widgets/account-rules.ts';
import { CodeButton } from '../../../components/widgets/code-button.tsx';
import { CodeInput } from '../../../components/widgets/code-input.tsx';
import { PhoneInput } from '../../../components/widgets/phone-input.tsx';
import { useServerErrors } from '../../../components/widgets/use-server-errors.ts';
import { accountApi } from '../components/account.api.ts';

interface Values {
  area_code: string;
  mobile: string;
  verification_code: string;
  new_password: string;
  confirmPassword: string;
}

const FIELDS = ['mobile', 'verification_code', 'new_password', 'confirmPassword'];
/** The server names the number `source` (spec §3) and the code request `destination`. */
const RENAME = { source: 'mobile', destination: 'mobile' };

/** Forgot password (spec §2, §3): mobile, SMS code, new password, confirmation. */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const area = Form.useWatch('area_code', form);
  const errors = useServerErrors();
  const [done, setDone] = useState(false);

  useEffect(() => {
    document.title = t('auth.forgot.title');
  }, [t]);

  const reset = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) =>
      accountApi.resetPassword({
        type: 1,
        user_type: -1,
        source: v.mobile.trim(),
        verification_code: v.verification_code,
        new_password: v.new_password,
        confirmPassword: v.confirmPassword,
      }),
    onMutate: () => errors.clear(),
    onSuccess: () => {
      form.resetFields();
      setDone(true);
    },
    onError: (e) => errors.show(form, e, FIELDS, RENAME),
  });

  const sendCode = async () => {
    await form.validateFields(['mobile']);
    errors.clear();
    try {
      await accountApi.sendCode(1, form.getFieldValue('mobile').trim(), 'modify', form.getFieldValue('area_code'));
    } catch (e) {
      errors.show(form, e, FIELDS, RENAME);
      throw e;
    }
  };

  return (
    <PublicFrame>
      <Card style={{ width: 520, maxWidth: '100%' }} data-testid="forgot-card">
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('auth.forgot.title')}
        </Typography.Title>
        {done ? (
          <Result
            status="success"
            title={t('auth.forgot.done')}
            extra={
              <Link to="/Login">
                <Button type="primary">{t('common.action.backToLogin')}</Button>
              </Link>
            }
          />
        ) : (
          <>
            {errors.general && <Alert type="error" showIcon title={errors.general} style={{ marginBottom: 16 }} role="alert" />}
            <Form<Values>
              form={form}
              name="forgot"
              layout="vertical"
              initialValues={{ area_code: DEFAULT_AREA_CODE }}
              onFinish={(v) => reset.mutate(v)}
            >
              <Form.Item name="area_code" hidden>
                <Input />
              </Form.Item>
              <Form.Item required name="mobile" label={t('auth.forgot.mobile')} rules={rules.mobile(t, form)} validateFirst>
                <PhoneInput areaCode={area} onAreaCodeChange={(a) => form.setFieldValue('area_code', a)} />
              </Form.Item>
              <Form.Item label={t('auth.forgot.code')} required>
                <Space wrap>
                  <Form.Item name="verification_code" noStyle rules={rules.code(t, '014')}>
                    <CodeInput />
                  </Form.Item>
                  <CodeButton onSend={sendCode} onError={() => {}} />
                </Space>
              </Form.Item>
              <Form.Item required name="new_password" label={t('auth.forgot.newPassword')} rules={rules.password(t)}>
                <Input.Password autoComplete="new-password" maxLength={32} />
              </Form.Item>
              <Form.Item
                required
                name="confirmPassword"
                label={t('auth.forgot.confirm')}
                dependencies={['new_password']}
                rules={rules.confirm(t, form, 'new_password')}
              >
                <Input.Password autoComplete="new-password" maxLength={32} />
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={reset.isPending}>
                {t('auth.forgot.submit')}
              </Button>
            </Form>
            <div style={{ marginTop: 16, textAlign: 'center' }}>
              <Link to="/Login">{t('common.action.backToLogin')}</Link>
            </div>
          </>
        )}
      </Card>
    </PublicFrame>
  );
}
