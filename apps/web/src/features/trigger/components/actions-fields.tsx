import { Form, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { parseParams } from '../trigger-rule.form.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9]{2,20}$/;
const MAX_RECIPIENTS = 10;

/** E-mail / SMS / voice recipients and a device command; `name` is `actions` or `recover`. */
export function ActionsFields({ name }: { name: 'actions' | 'recover' }) {
  const { t } = useTranslation();
  const list = (pattern: RegExp, bad: string) => ({
    validator: async (_: unknown, v: string[] | undefined) => {
      if ((v ?? []).length > MAX_RECIPIENTS) throw new Error(t('trigger.action.tooMany', { max: MAX_RECIPIENTS }));
      const wrong = (v ?? []).find((x) => !pattern.test(x));
      if (wrong) throw new Error(`${bad}: ${wrong}`);
    },
  });
  return (
    <>
      <Form.Item name={[name, 'email']} label={t('trigger.action.email')} rules={[list(EMAIL, t('trigger.action.badEmail'))]}>
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
      </Form.Item>
      <Form.Item name={[name, 'sms']} label={t('trigger.action.sms')} rules={[list(PHONE, t('trigger.action.badPhone'))]}>
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
      </Form.Item>
      <Form.Item name={[name, 'voice']} label={t('trigger.action.voice')} rules={[list(PHONE, t('trigger.action.badPhone'))]}>
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
      </Form.Item>
      <Space wrap align="start" style={{ display: 'flex' }}>
        <Form.Item name={[name, 'command_name']} label={t('trigger.action.command')} rules={[{ max: 64 }]}>
          <Input style={{ width: 200 }} />
        </Form.Item>
        <Form.Item
          name={[name, 'command_params']}
          label={t('trigger.action.params')}
          rules={[
            {
              validator: async (_, v: string | undefined) => {
                if (parseParams(v) === null) throw new Error(t('trigger.action.badParams'));
              },
            },
          ]}
        >
          <Input style={{ width: 320 }} placeholder='{"key": "value"}' />
        </Form.Item>
      </Space>
    </>
  );
}
