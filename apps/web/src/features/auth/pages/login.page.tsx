import { ApiOutlined, AreaChartOutlined, CloudServerOutlined, LoginOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Divider, Spin, Tabs, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { tokenClaims } from '../../../api/session-storage.ts';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { globalConfigQuery } from '../../../session/session.queries.ts';
import { startSession } from '../../../session/session.ts';
import { authApi } from '../api/auth.api.ts';
import { CodeLoginForm } from '../components/code-login-form.tsx';
import { PasswordLoginForm } from '../components/password-login-form.tsx';
import { HOME, useLogin } from '../components/use-login.ts';
import '../login.css';

/** Only a path inside this console may be a redirect target (no `//host` or scheme). */
function safePath(p: string | null): string | null {
  return p?.startsWith('/') && !p.startsWith('//') && !p.includes('\\') ? p : null;
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const config = useQuery(globalConfigQuery());
  const { login, pending, error, clearError } = useLogin();
  const [tab, setTab] = useState('password');
  const thirdParty = useThirdPartyReturn();
  const [params] = useSearchParams();
  const oidcError = params.get('oidcError');
  const thirdPartyError = oidcError ? (i18n.exists(`errors.${oidcError}`) ? t(`errors.${oidcError}`) : t('errors.oidc.failed')) : null;
  const brand = config.data?.cloudname || t('common.brand.default');

  useEffect(() => {
    document.title = `${t('auth.login.title')} - ${brand}`;
  }, [t, brand]);

  if (thirdParty) {
    return (
      <div className="lh-login lh-login--center">
        <Spin size="large" />
        <Typography.Text>{t('auth.login.thirdPartyLoading')}</Typography.Text>
      </div>
    );
  }

  return (
    <div className="lh-login">
      <section className="lh-login__hero">
        <div className="lh-login__brand">
          {config.data?.loginLogo ? (
            <img src={config.data.loginLogo} alt="" height={40} />
          ) : (
            <span className="lh-logo lh-logo--big">L</span>
          )}
          <span>{brand}</span>
        </div>
        <h1 className="lh-login__tagline">{t('auth.login.tagline')}</h1>
        <ul className="lh-login__features">
          <li>
            <CloudServerOutlined /> {t('auth.login.feature.devices')}
          </li>
          <li>
            <AreaChartOutlined /> {t('auth.login.feature.data')}
          </li>
          <li>
            <ApiOutlined /> {t('auth.login.feature.alerts')}
          </li>
        </ul>
      </section>
      <section className="lh-login__panel">
        <div className="lh-login__tools">
          <Link to="/doc?type=help" target="_blank">
            <QuestionCircleOutlined /> {t('auth.login.help')}
          </Link>
          <LanguageSwitch />
        </div>
        <Card className="lh-login__card" variant="borderless">
          <Typography.Title level={3} style={{ marginTop: 0 }}>
            {t('auth.login.welcome')}
          </Typography.Title>
          <Tabs
            activeKey={tab}
            onChange={(k) => {
              setTab(k);
              clearError();
            }}
            items={[
              { key: 'password', label: t('auth.login.tab.password') },
              { key: 'code', label: t('auth.login.tab.code') },
            ]}
          />
          {(error ?? thirdPartyError) && (
            <Alert type="error" showIcon title={error ?? thirdPartyError} style={{ marginBottom: 16 }} role="alert" />
          )}
          {tab === 'password' ? <PasswordLoginForm login={login} pending={pending} /> : <CodeLoginForm login={login} pending={pending} />}
          <div className="lh-login__links">
            <Link to="/ForgetPassword">{t('auth.login.forgot')}</Link>
            <Link to="/Register">{t('auth.login.register')}</Link>
          </div>
          {(config.data?.experience || config.data?.oidc.enabled) && <Divider plain />}
          <div className="lh-login__alt">
            {config.data?.experience && (
              <Button block onClick={() => login('experience', authApi.experience)} disabled={pending}>
                {t('auth.login.experience')}
              </Button>
            )}
            {config.data?.oidc.enabled && (
              <Tooltip title={config.data.oidc.name || t('auth.login.thirdParty')}>
                <Button
                  shape="circle"
                  icon={<LoginOutlined />}
                  aria-label={t('auth.login.thirdParty')}
                  href={authApi.oidcAuthorizeUrl(HOME)}
                />
              </Tooltip>
            )}
          </div>
        </Card>
      </section>
    </div>
  );
}

/**
 * After a third-party login the provider sends the browser back to /Login with
 * token, ujwt, prePath and preQuery (spec §2): keep the session and go on.
 */
function useThirdPartyReturn(): boolean {
  const [params] = useSearchParams();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const token = params.get('token');
  useEffect(() => {
    if (!token) return;
    const ujwt = params.get('ujwt') ?? '';
    const prePath = safePath(params.get('prePath'));
    const preQuery = params.get('preQuery');
    void startSession(qc, { token, ujwt, session_id: tokenClaims(token)?.sid ?? '', expires_at: 0 }, '').then((landing) => {
      const to = prePath ?? landing;
      navigate(preQuery ? `${to}?${preQuery.replace(/^\?/, '')}` : to, { replace: true });
    });
  }, [token, params, qc, navigate]);
  return token !== null;
}
