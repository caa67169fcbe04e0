import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { sessionApi } from '../../../session/session.api.ts';
import { authApi } from '../api/auth.api.ts';
import { Button, FieldError, TextInput } from './sign-in-controls.tsx';

interface Values {
  area: string;
  mobile: string;
  code: string;
}

type Errors = Partial<Record<'mobile' | 'code', string>>;

/** The most used area codes first (spec §3); the full list comes with the phone-input widget. */
const AREAS = ['86', '1', '852', '853', '886', '81', '82'];
const COUNTDOWN = 60;

export function CodeLoginForm({
  login,
  pending,
  onNotice,
}: {
  login: (username: string, call: () => Promise<LoginResponse>) => void;
  pending: boolean;
  /** Tells the page what the code request did: sent, or why not. */
  onNotice: (notice: { type: 'success' | 'error'; text: string }) => void;
}) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<Values>({ area: '86', mobile: '', code: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const checkMobile = (v: Values): Errors => {
    const mobile = v.mobile.trim();
    if (!mobile) return { mobile: t('errors.002') };
    return /^\d{2,16}$/.test(mobile) ? {} : { mobile: t('errors.004') };
  };
  const checkCode = (v: Values): Errors => (/^\d{6}$/.test(v.code) ? {} : { code: t('errors.014') });

  /** A field with an error is checked again as it is typed in, as Ant Design's form does. */
  const change = (patch: Partial<Values>) => {
    const next = { ...values, ...patch };
    setValues(next);
    const now = { ...checkMobile(next), ...checkCode(next) };
    setErrors((old) => {
      const kept: Errors = {};
      for (const k of Object.keys(old) as (keyof Errors)[]) if (now[k]) kept[k] = now[k];
      return kept;
    });
  };

  const sendCode = async () => {
    const found = checkMobile(values);
    setErrors((old) => ({ code: old.code, ...found }));
    if (found.mobile) return;
    setSending(true);
    try {
      await authApi.sendLoginCode(values.mobile.trim(), values.area);
      onNotice({ type: 'success', text: t('auth.login.code.sent') });
      setLeft(COUNTDOWN);
    } catch (e) {
      onNotice({ type: 'error', text: errorText(e, t, (k) => i18n.exists(k)) });
    } finally {
      setSending(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = { ...checkMobile(values), ...checkCode(values) };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    // The account is found by its mobile number; the area code went with the code request.
    const username = values.mobile.trim();
    login(username, () => sessionApi.login({ username, password: values.code, type: 2 }));
  };

  return (
    <form id="code-login" className="lh-form" noValidate onSubmit={submit}>
      <div className="lh-field">
        <div className="lh-compact">
          <select
            id="code-login_area"
            className="lh-select"
            aria-label={t('auth.login.area')}
            value={values.area}
            onChange={(e) => change({ area: e.target.value })}
          >
            {AREAS.map((a) => (
              <option key={a} value={a}>
                +{a}
              </option>
            ))}
          </select>
          <TextInput
            id="code-login_mobile"
            icon={MobileOutlined}
            placeholder={t('auth.login.mobile.placeholder')}
            aria-label={t('auth.login.mobile.placeholder')}
            aria-required
            autoComplete="tel"
            maxLength={16}
            value={values.mobile}
            error={errors.mobile}
            onChange={(e) => change({ mobile: e.target.value })}
          />
        </div>
        <FieldError id="code-login_mobile_help" text={errors.mobile ?? null} />
      </div>
      <div className="lh-field">
        <div className="lh-compact">
          <TextInput
            id="code-login_code"
            icon={SafetyOutlined}
            placeholder={t('auth.login.code.placeholder')}
            aria-label={t('auth.login.code.placeholder')}
            aria-required
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={values.code}
            error={errors.code}
            onChange={(e) => change({ code: e.target.value })}
          />
          <Button className="lh-code-button" onClick={() => void sendCode()} disabled={left > 0} loading={sending}>
            {left > 0 ? t('auth.login.code.resend', { seconds: left }) : t('auth.login.code.send')}
          </Button>
        </div>
        <FieldError id="code-login_code_help" text={errors.code ?? null} />
      </div>
      <Button type="submit" variant="primary" block loading={pending} className="lh-code-submit">
        {t('auth.login.submit')}
      </Button>
    </form>
  );
}
