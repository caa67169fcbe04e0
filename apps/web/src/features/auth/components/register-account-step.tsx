import { TENANT_TYPE } from '@loggerhead/contract/schemas/accounts.ts';
import { Alert, Checkbox, Form, type FormInstance, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { rules } from '../../../components/widgets/account-rules.ts';
import { CodeButton } from '../../../components/widgets/code-button.tsx';
import { CodeInput } from '../../../components/widgets/code-input.tsx';

/** The page shows send failures on the form itself. */
const shownByPage = () => {};

import { PhoneInput } from '../../../components/widgets/phone-input.tsx';
import type { RegisterValues } from './register-flow.ts';

/** Step 1 (spec §2): account type, mobile with SMS code, username, password, confirmation, agreement. */
export function RegisterAccountStep({ form, onSendCode }: { form: FormInstance<RegisterValues>; onSendCode: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const tenantType = Form.useWatch('tenant_type', form);
  const area = Form.useWatch('area_code', form);
  return (
    <>
      <Form.Item name="tenant_type" label={t('auth.register.tenantType.label')}>
        <Select
          data-testid="tenant-type"
          options={[
            { value: TENANT_TYPE.standalone, label: t('auth.register.tenantType.standalone') },
            { value: TENANT_TYPE.owner, label: t('auth.register.tenantType.owner') },
            { value: TENANT_TYPE.merchant, label: t('auth.register.tenantType.merchant') },
          ]}
        />
      </Form.Item>
      {tenantType === TENANT_TYPE.merchant && (
        <Alert
          type="warning"
          showIcon
          title={t('errors.register.merchant-closed')}
          style={{ marginBottom: 16 }}
          data-testid="merchant-closed"
        />
      )}
      {tenantType === TENANT_TYPE.owner && (
        <Form.Item
          name="merchant_id"
          label={t('auth.register.merchantId.label')}
          rules={[{ required: true, whitespace: true, message: t('errors.020') }]}
        >
          <Input placeholder={t('auth.register.merchantId.placeholder')} maxLength={64} />
        </Form.Item>
      )}
      <Form.Item name="area_code" hidden>
        <Input />
      </Form.Item>
      <Form.Item required name="mobile" label={t('auth.register.mobile.label')} rules={rules.mobile(t, form)} validateFirst>
        <PhoneInput areaCode={area} onAreaCodeChange={(a) => form.setFieldValue('area_code', a)} />
      </Form.Item>
      <Form.Item label={t('auth.register.smsCode.label')} required>
        <Space wrap>
          <Form.Item name="mobile_verification_code" noStyle rules={rules.code(t, '014')}>
            <CodeInput />
          </Form.Item>
          <CodeButton onSend={onSendCode} onError={shownByPage} testId="sms-code-button" />
        </Space>
      </Form.Item>
      <Form.Item
        required
        name="username"
        label={t('auth.register.username.label')}
        rules={rules.username(t)}
        extra={t('auth.register.username.hint')}
      >
        <Input placeholder={t('auth.register.username.placeholder')} autoComplete="username" maxLength={32} />
      </Form.Item>
      <Form.Item
        required
        name="password"
        label={t('auth.register.password.label')}
        rules={rules.password(t)}
        extra={t('auth.register.password.hint')}
      >
        <Input.Password placeholder={t('auth.register.password.placeholder')} autoComplete="new-password" maxLength={32} />
      </Form.Item>
      <Form.Item
        required
        name="confirmPassword"
        label={t('auth.register.confirm.label')}
        dependencies={['password']}
        rules={rules.confirm(t, form)}
      >
        <Input.Password placeholder={t('auth.register.confirm.placeholder')} autoComplete="new-password" maxLength={32} />
      </Form.Item>
      <Form.Item
        name="agreement"
        valuePropName="checked"
        wrapperCol={{ offset: 0 }}
        rules={[{ validator: async (_r, v) => (v ? undefined : Promise.reject(new Error(t('auth.register.agreement.required')))) }]}
      >
        <Checkbox>
          {t('auth.register.agreement.text')}{' '}
          <Link to="/doc?type=help" target="_blank">
            {t('auth.register.agreement.link')}
          </Link>
        </Checkbox>
      </Form.Item>
    </>
  );
}
