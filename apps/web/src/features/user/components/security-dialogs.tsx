import { DEFAULT_AREA_CODE, type SelfUserDetail } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, type FormInstance, Input, Modal, Radio, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { rules } from '../../../components/widgets/account-rules.ts';
import { CodeButton } from '../../../components/widgets/code-button.tsx';
import { CodeInput } from '../../../components/widgets/code-input.tsx';
import { PhoneInput } from '../../../components/widgets/phone-input.tsx';
import { useServerErrors } from '../../../components/widgets/use-server-errors.ts';
import { selfDetailKey, sessionKeys } from '../../../session/session.queries.ts';
import { userApi } from '../api/user.api.ts';

export type SecurityAction = 'password' | 'mobile' | 'email';
type Values = Record<string, string>;

const FIELDS: Record<SecurityAction, string[]> = {
  password: ['old_password', 'code', 'password', 'confirmPassword'],
  mobile: ['new_mobile', 'new_code'],
  email: ['email', 'code'],
};
/** Code requests name the number or address `destination`. */
const RENAME: Record<SecurityAction, Record<string, string>> = {
  password: { destination: 'code', mobile: 'code' },
  mobile: { destination: 'new_mobile' },
  email: { destination: 'email' },
};

/** Account security changes (spec §7 self password / mobile / e-mail), each confirmed by a password or a code. */
export function SecurityDialog({ action, self, onClose }: { action: SecurityAction | null; self: SelfUserDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const errors = useServerErrors();

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) => {
      if (action === 'password') {
        const byCode = v.mode === 'code';
        return userApi.changePassword({
          old_password: byCode ? undefined : v.old_password,
          code: byCode ? v.code : undefined,
          mobile: byCode ? (self.mobile ?? undefined) : undefined,
          password: v.password,
          confirmPassword: v.confirmPassword,
        });
      }
      if (action === 'mobile') {
        return userApi.changeMobile({
          new_mobile: v.new_mobile.trim(),
          new_code: v.new_code,
          old_mobile: self.mobile ?? undefined,
          area_code: v.area_code,
        });
      }
      return userApi.changeEmail({ email: v.email.trim(), code: v.code });
    },
    onMutate: () => errors.clear(),
    onSuccess: () => {
      message.success(t(`user.security.${action ?? 'password'}.done`));
      void qc.invalidateQueries({ queryKey: selfDetailKey });
      void qc.invalidateQueries({ queryKey: sessionKeys.self() });
      onClose();
    },
    onError: (e) => action && errors.show(form, e, FIELDS[action], RENAME[action]),
  });

  const sendCode = (type: 1 | 2, field: string) => async () => {
    if (field) await form.validateFields([field]);
    errors.clear();
    const destination = type === 1 && !field ? (self.mobile ?? '') : String(form.getFieldValue(field) ?? '').trim();
    const area = field ? form.getFieldValue('area_code') : self.area_code;
    try {
      await userApi.sendCode(type, destination, area);
    } catch (e) {
      if (action) errors.show(form, e, FIELDS[action], RENAME[action]);
      throw e;
    }
  };

  return (
    <Modal
      open={action !== null}
      title={action ? t(`user.security.${action}.title`) : ''}
      okText={t('user.common.save')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
      onOk={() =>
        void form.validateFields().then(
          (v) => save.mutate(v),
          () => {},
        )
      }
      onCancel={onClose}
    >
      {errors.general && <Alert type="error" showIcon title={errors.general} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        name={`security-${action}`}
        layout="vertical"
        preserve={false}
        initialValues={{ mode: 'password', area_code: self.area_code || DEFAULT_AREA_CODE }}
      >
        {action === 'password' && <PasswordFields form={form} self={self} sendCode={sendCode(1, '')} />}
        {action === 'mobile' && <MobileFields form={form} sendCode={sendCode(1, 'new_mobile')} />}
        {action === 'email' && (
          <>
            <Form.Item required name="email" label={t('user.security.email.new')} rules={rules.email(t)}>
              <Input maxLength={254} autoComplete="email" />
            </Form.Item>
            <CodeField
              name="code"
              label={t('user.security.code')}
              emptyCode="021"
              button={<CodeButton onSend={sendCode(2, 'email')} onError={() => {}} />}
            />
          </>
        )}
      </Form>
    </Modal>
  );
}

function CodeField({ name, label, emptyCode, button }: { name: string; label: string; emptyCode: '014' | '021'; button: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} required>
      <Space wrap>
        <Form.Item name={name} noStyle rules={rules.code(t, emptyCode)}>
          <CodeInput />
        </Form.Item>
        {button}
      </Space>
    </Form.Item>
  );
}

function PasswordFields({ form, self, sendCode }: { form: FormInstance; self: SelfUserDetail; sendCode: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const mode = Form.useWatch('mode', form);
  return (
    <>
      <Form.Item name="mode">
        <Radio.Group
          options={[
            { value: 'password', label: t('user.security.password.byOld') },
            { value: 'code', label: t('user.security.password.byCode'), disabled: !self.mobile },
          ]}
        />
      </Form.Item>
      {mode === 'code' ? (
        <CodeField
          name="code"
          label={t('user.security.password.codeTo', { mobile: self.mobile ?? '' })}
          emptyCode="014"
          button={<CodeButton onSend={sendCode} onError={() => {}} />}
        />
      ) : (
        <Form.Item
          required
          name="old_password"
          label={t('user.security.password.old')}
          rules={[{ required: true, message: t('errors.006') }]}
        >
          <Input.Password maxLength={32} autoComplete="current-password" />
        </Form.Item>
      )}
      <Form.Item required name="password" label={t('user.security.password.new')} rules={rules.password(t)}>
        <Input.Password maxLength={32} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        required
        name="confirmPassword"
        label={t('user.security.password.confirm')}
        dependencies={['password']}
        rules={rules.confirm(t, form)}
      >
        <Input.Password maxLength={32} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

function MobileFields({ form, sendCode }: { form: FormInstance; sendCode: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const area = Form.useWatch('area_code', form);
  return (
    <>
      <Form.Item name="area_code" hidden>
        <Input />
      </Form.Item>
      <Form.Item required name="new_mobile" label={t('user.security.mobile.new')} rules={rules.mobile(t, form)} validateFirst>
        <PhoneInput areaCode={area} onAreaCodeChange={(a) => form.setFieldValue('area_code', a)} />
      </Form.Item>
      <CodeField
        name="new_code"
        label={t('user.security.code')}
        emptyCode="014"
        button={<CodeButton onSend={sendCode} onError={() => {}} />}
      />
    </>
  );
}
