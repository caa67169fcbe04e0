import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionApi } from '../../../session/session.api.ts';
import { readRemembered, writeRemembered } from '../remember-cookie.ts';
import { Button, FieldError, PasswordInput, TextInput } from './sign-in-controls.tsx';

interface Values {
  username: string;
  password: string;
  remember: boolean;
}

type Errors = Partial<Record<'username' | 'password', string>>;

export function PasswordLoginForm({
  login,
  pending,
}: {
  login: (username: string, call: () => Promise<LoginResponse>) => void;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(() => {
    const remembered = readRemembered();
    return { username: remembered?.username ?? '', password: remembered?.password ?? '', remember: remembered !== null };
  });
  const [errors, setErrors] = useState<Errors>({});

  const check = (v: Values): Errors => ({
    ...(v.username.trim() ? {} : { username: t('errors.001') }),
    ...(v.password ? {} : { password: t('errors.022') }),
  });

  /** A field with an error is checked again as it is typed in, as Ant Design's form does. */
  const change = (patch: Partial<Values>) => {
    const next = { ...values, ...patch };
    setValues(next);
    const now = check(next);
    setErrors((old) => {
      const kept: Errors = {};
      for (const k of Object.keys(old) as (keyof Errors)[]) if (now[k]) kept[k] = now[k];
      return kept;
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const username = values.username.trim();
    writeRemembered(values.remember ? { username, password: values.password } : null);
    login(username, () => sessionApi.login({ username, password: values.password, type: 1 }));
  };

  return (
    <form id="password-login" className="lh-form" noValidate onSubmit={submit}>
      <div className="lh-field">
        <TextInput
          id="password-login_username"
          icon={UserOutlined}
          placeholder={t('auth.login.username.placeholder')}
          aria-label={t('auth.login.username.placeholder')}
          aria-required
          autoComplete="username"
          maxLength={65}
          value={values.username}
          error={errors.username}
          onChange={(e) => change({ username: e.target.value })}
        />
        <FieldError id="password-login_username_help" text={errors.username ?? null} />
      </div>
      <div className="lh-field">
        <PasswordInput
          id="password-login_password"
          icon={LockOutlined}
          placeholder={t('auth.login.password.placeholder')}
          aria-label={t('auth.login.password.placeholder')}
          aria-required
          autoComplete="current-password"
          maxLength={128}
          value={values.password}
          error={errors.password}
          onChange={(e) => change({ password: e.target.value })}
        />
        <FieldError id="password-login_password_help" text={errors.password ?? null} />
      </div>
      <label className="lh-checkbox">
        <input
          id="password-login_remember"
          type="checkbox"
          checked={values.remember}
          onChange={(e) => setValues((v) => ({ ...v, remember: e.target.checked }))}
        />
        <span>{t('auth.login.remember')}</span>
      </label>
      <Button type="submit" variant="primary" block loading={pending}>
        {t('auth.login.submit')}
      </Button>
    </form>
  );
}
