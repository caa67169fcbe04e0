import { DEFAULT_AREA_CODE, TENANT_TYPE } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Space, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFrame } from '../../../components/public-frame.tsx';
import type { SpreadErrors } from '../../../components/widgets/server-field-errors.ts';
import { useServerErrors } from '../../../components/widgets/use-server-errors.ts';
import { accountApi } from '../components/account.api.ts';
import { RegisterAccountStep } from '../components/register-account-step.tsx';
import {
  ACCOUNT_FIELDS,
  ALL_FIELDS,
  EMAIL_FIELDS,
  earliestStep,
  PROFILE_FIELDS,
  type RegisterValues,
  registrationBody,
  STEP,
  type Step,
} from '../components/register-flow.ts';
import { RegisterDone, RegisterEmailStep, RegisterProfileStep } from '../components/register-more-steps.tsx';

const INITIAL: Partial<RegisterValues> = { tenant_type: TENANT_TYPE.standalone, area_code: DEFAULT_AREA_CODE, gender: 'male' };

/**
 * Registration in four steps (spec §2, §4): account, e-mail (skippable), personal info
 * (skippable), done. Everything is sent once at the end; the server's field errors send
 * the user back to the step of the first failing field (bad SMS code: step 1 with 018,
 * bad e-mail code: step 2 with 019). On success the form is reset.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<RegisterValues>();
  const [step, setStep] = useState<Step>(STEP.account);
  const [withEmail, setWithEmail] = useState(false);
  const [registered, setRegistered] = useState('');
  // Field errors wait until their step's items are mounted.
  const [pending, setPending] = useState<SpreadErrors | null>(null);
  const errors = useServerErrors();
  const { apply } = errors;
  const tenantType = Form.useWatch('tenant_type', form);

  useEffect(() => {
    document.title = t('auth.register.title');
  }, [t]);

  useEffect(() => {
    if (!pending) return;
    apply(form, pending);
    setPending(null);
  }, [pending, form, apply]);

  const fail = (e: unknown, fallback: Step) => {
    const s = errors.spread(e, ALL_FIELDS, { destination: fallback === STEP.email ? 'email' : 'mobile', name: 'username' });
    setStep(
      earliestStep(
        s.fields.map((f) => f.name),
        fallback,
      ),
    );
    setPending(s);
  };

  const register = useMutation({
    meta: { silent: true },
    mutationFn: (withProfile: boolean) => accountApi.register(registrationBody(form.getFieldsValue(true), { withEmail, withProfile })),
    onSuccess: () => {
      setRegistered(form.getFieldValue('username') ?? '');
      form.resetFields();
      setWithEmail(false);
      errors.clear();
      setStep(STEP.done);
    },
    onError: (e) => fail(e, STEP.profile),
  });

  const sendSms = async () => {
    const { mobile, area_code } = await form.validateFields(['mobile']).then(() => form.getFieldsValue(['mobile', 'area_code']));
    try {
      await accountApi.sendCode(1, (mobile ?? '').trim(), 'register', area_code);
    } catch (e) {
      fail(e, STEP.account);
      throw e;
    }
  };

  const sendEmailCode = async () => {
    await form.validateFields(['email']);
    try {
      await accountApi.sendCode(2, (form.getFieldValue('email') ?? '').trim(), 'register');
    } catch (e) {
      fail(e, STEP.email);
      throw e;
    }
  };

  /** Step 1 → 2: the form's rules, then the server's "already registered" checks (007, 009). */
  const checkAccount = useMutation({
    meta: { silent: true },
    mutationFn: async () => {
      const v = await form.validateFields([...ACCOUNT_FIELDS].filter((f) => f !== 'merchant_id' || tenantType === TENANT_TYPE.owner));
      errors.clear();
      const all = form.getFieldsValue(true) as RegisterValues;
      const results = await Promise.allSettled([
        accountApi.validate('mobile', (v.mobile ?? '').trim(), all.area_code),
        accountApi.validate('name', (v.username ?? '').trim()),
      ]);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        // Both checks may fail: show every field error at once.
        const reasons = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
        const merged = reasons.map((r) => errors.spread(r, ALL_FIELDS, { name: 'username' }));
        errors.apply(form, { fields: merged.flatMap((m) => m.fields), general: merged.flatMap((m) => m.general) });
        throw failed.reason;
      }
    },
    onSuccess: () => setStep(STEP.email),
  });

  const next = async () => {
    if (step === STEP.account) checkAccount.mutate();
    else if (step === STEP.email) {
      await form.validateFields([...EMAIL_FIELDS]);
      setWithEmail(true);
      setStep(STEP.profile);
    } else if (step === STEP.profile) {
      await form.validateFields([...PROFILE_FIELDS]);
      register.mutate(true);
    }
  };

  const skip = () => {
    if (step === STEP.email) {
      form.setFieldsValue({ email: undefined, email_verification_code: undefined });
      setWithEmail(false);
      setStep(STEP.profile);
    } else if (step === STEP.profile) register.mutate(false);
  };

  const busy = checkAccount.isPending || register.isPending;
  const merchantClosed = tenantType === TENANT_TYPE.merchant;

  return (
    <PublicFrame>
      <Card style={{ width: 640, maxWidth: '100%' }} data-testid="register-card">
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('auth.register.title')}
        </Typography.Title>
        <Steps
          current={step}
          size="small"
          style={{ marginBottom: 24 }}
          items={[
            { title: t('auth.register.step.account') },
            { title: t('auth.register.step.email') },
            { title: t('auth.register.step.profile') },
            { title: t('auth.register.step.done') },
          ]}
        />
        {errors.general && step !== STEP.done && (
          <Alert type="error" showIcon title={errors.general} style={{ marginBottom: 16 }} role="alert" data-testid="register-error" />
        )}
        {step === STEP.done ? (
          <RegisterDone username={registered} />
        ) : (
          <Form<RegisterValues>
            form={form}
            name="register"
            layout="horizontal"
            labelCol={{ flex: '120px' }}
            labelWrap
            initialValues={INITIAL}
            onFinish={() => void next().catch(() => {})}
          >
            {step === STEP.account && <RegisterAccountStep form={form} onSendCode={sendSms} />}
            {step === STEP.email && <RegisterEmailStep onSendCode={sendEmailCode} />}
            {step === STEP.profile && <RegisterProfileStep />}
            <Space style={{ width: '100%', justifyContent: 'flex-end' }} wrap>
              {step > STEP.account && (
                <Button onClick={() => setStep((s) => (s - 1) as Step)} disabled={busy} data-testid="register-back">
                  {t('auth.register.back')}
                </Button>
              )}
              {(step === STEP.email || step === STEP.profile) && (
                <Button onClick={skip} disabled={busy} data-testid="register-skip">
                  {t('auth.register.skip')}
                </Button>
              )}
              <Button type="primary" htmlType="submit" loading={busy} disabled={merchantClosed} data-testid="register-next">
                {step === STEP.profile ? t('auth.register.submit') : t('auth.register.next')}
              </Button>
            </Space>
          </Form>
        )}
        {step !== STEP.done && (
          <div style={{ marginTop: 16, textAlign: 'center' }}>
            <Link to="/Login">{t('auth.haveAccount')}</Link>
          </div>
        )}
      </Card>
    </PublicFrame>
  );
}
