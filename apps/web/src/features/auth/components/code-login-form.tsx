import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { App, Button, Form, Input, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { sessionApi } from '../../../session/session.api.ts';
import { authApi } from '../api/auth.api.ts';

interface Values {
  area: string;
  mobile: string;
  code: string;
}

/** The most used area codes first (spec §3); the full list comes with the phone-input widget. */
const AREAS = ['86', '1', '852', '853', '886', '81', '82'];
const COUNTDOWN = 60;

export function CodeLoginForm({
  login,
  pending,
}: {
  login: (username: string, call: () => Promise<LoginResponse>) => void;
  pending: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const sendCode = async () => {
    const { area, mobile } = await form.validateFields(['area', 'mobile']);
    setSending(true);
    try {
      await authApi.sendLoginCode(mobile.trim(), area);
      message.success(t('auth.login.code.sent'));
      setLeft(COUNTDOWN);
    } catch (e) {
      message.error(errorText(e, t, (k) => i18n.exists(k)));
    } finally {
      setSending(false);
    }
  };

  const submit = (v: Values) => {
    // The account is found by its mobile number; the area code went with the code request.
    const username = v.mobile.trim();
    login(username, () => sessionApi.login({ username, password: v.code, type: 2 }));
  };

  return (
    <Form<Values> form={form} name="code-login" size="large" initialValues={{ area: '86', mobile: '', code: '' }} onFinish={submit}>
      <Form.Item required>
        <Space.Compact block>
          <Form.Item name="area" noStyle>
            <Select style={{ width: 96 }} options={AREAS.map((a) => ({ value: a, label: `+${a}` }))} />
          </Form.Item>
          <Form.Item
            name="mobile"
            noStyle
            rules={[
              { required: true, message: t('errors.002') },
              { pattern: /^\d{2,16}$/, message: t('errors.004') },
            ]}
          >
            <Input prefix={<MobileOutlined />} placeholder={t('auth.login.mobile.placeholder')} autoComplete="tel" maxLength={16} />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item required>
        <Space.Compact block>
          <Form.Item
            name="code"
            noStyle
            rules={[
              { required: true, message: t('errors.014') },
              { pattern: /^\d{6}$/, message: t('errors.014') },
            ]}
          >
            <Input prefix={<SafetyOutlined />} placeholder={t('auth.login.code.placeholder')} maxLength={6} inputMode="numeric" />
          </Form.Item>
          <Button onClick={() => void sendCode().catch(() => {})} disabled={left > 0} loading={sending} style={{ minWidth: 128 }}>
            {left > 0 ? t('auth.login.code.resend', { seconds: left }) : t('auth.login.code.send')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={pending} style={{ marginTop: 44 }}>
        {t('auth.login.submit')}
      </Button>
    </Form>
  );
}
