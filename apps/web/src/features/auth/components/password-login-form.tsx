import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { Button, Checkbox, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { sessionApi } from '../../../session/session.api.ts';
import { readRemembered, writeRemembered } from '../remember-cookie.ts';

interface Values {
  username: string;
  password: string;
  remember: boolean;
}

export function PasswordLoginForm({
  login,
  pending,
}: {
  login: (username: string, call: () => Promise<LoginResponse>) => void;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const remembered = readRemembered();

  const submit = (v: Values) => {
    const username = v.username.trim();
    writeRemembered(v.remember ? { username, password: v.password } : null);
    login(username, () => sessionApi.login({ username, password: v.password, type: 1 }));
  };

  return (
    <Form<Values>
      name="password-login"
      size="large"
      initialValues={{ username: remembered?.username ?? '', password: remembered?.password ?? '', remember: remembered !== null }}
      onFinish={submit}
    >
      <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('errors.001') }]}>
        <Input prefix={<UserOutlined />} placeholder={t('auth.login.username.placeholder')} autoComplete="username" maxLength={65} />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: t('errors.022') }]}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('auth.login.password.placeholder')}
          autoComplete="current-password"
          maxLength={128}
        />
      </Form.Item>
      <Form.Item name="remember" valuePropName="checked" style={{ marginBottom: 16 }}>
        <Checkbox>{t('auth.login.remember')}</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={pending}>
        {t('auth.login.submit')}
      </Button>
    </Form>
  );
}
