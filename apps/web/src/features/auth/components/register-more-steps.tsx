import { Button, Form, Input, Radio, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { rules } from '../../../components/widgets/account-rules.ts';
import { CodeButton } from '../../../components/widgets/code-button.tsx';
import { CodeInput } from '../../../components/widgets/code-input.tsx';

/** The page shows send failures on the form itself. */
const shownByPage = () => {};

/** Step 2 (spec §2): bind an e-mail with its code; the page offers "skip". */
export function RegisterEmailStep({ onSendCode }: { onSendCode: () => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item required name="email" label={t('auth.register.email.label')} rules={rules.email(t)} extra={t('auth.register.email.hint')}>
        <Input placeholder={t('auth.register.email.placeholder')} autoComplete="email" maxLength={254} />
      </Form.Item>
      <Form.Item label={t('auth.register.emailCode.label')} required>
        <Space wrap>
          <Form.Item name="email_verification_code" noStyle rules={rules.code(t, '021')}>
            <CodeInput />
          </Form.Item>
          <CodeButton onSend={onSendCode} onError={shownByPage} testId="email-code-button" />
        </Space>
      </Form.Item>
    </>
  );
}

/** Step 3 (spec §2, §5): personal information, 2-32 characters each; skippable. */
export function RegisterProfileStep() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="gender" label={t('auth.register.gender.label')}>
        <Radio.Group
          options={[
            { value: 'male', label: t('auth.register.gender.male') },
            { value: 'female', label: t('auth.register.gender.female') },
          ]}
        />
      </Form.Item>
      <Form.Item required name="job" label={t('auth.register.job.label')} rules={rules.length(t, 2, 32)}>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item required name="organization_name" label={t('auth.register.company.label')} rules={rules.length(t, 2, 32)}>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item required name="industry" label={t('auth.register.industry.label')} rules={rules.length(t, 2, 32)}>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item required name="address" label={t('auth.register.address.label')} rules={rules.length(t, 2, 32)}>
        <Input maxLength={32} />
      </Form.Item>
    </>
  );
}

/** Step 4: done; the account now waits for review (spec §4). */
export function RegisterDone({ username }: { username: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="success"
      title={t('auth.register.done.title')}
      subTitle={t('auth.register.done.text', { username })}
      extra={
        <Link to="/Login">
          <Button type="primary" data-testid="back-to-login">
            {t('common.action.backToLogin')}
          </Button>
        </Link>
      }
    />
  );
}
