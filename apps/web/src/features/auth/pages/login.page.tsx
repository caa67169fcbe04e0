import ApiOutlined from '@ant-design/icons-svg/es/asn/ApiOutlined';
import AreaChartOutlined from '@ant-design/icons-svg/es/asn/AreaChartOutlined';
import CheckCircleFilled from '@ant-design/icons-svg/es/asn/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import CloudServerOutlined from '@ant-design/icons-svg/es/asn/CloudServerOutlined';
import InfoCircleFilled from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import LoginOutlined from '@ant-design/icons-svg/es/asn/LoginOutlined';
import QuestionCircleOutlined from '@ant-design/icons-svg/es/asn/QuestionCircleOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/api-error.ts';
import { dropCodeFromAddress, newOidcState, takeOidcState } from '../../../api/oidc-state.ts';
import { SvgIcon } from '../../../components/svg-icon.tsx';
import { globalConfigQuery } from '../../../session/session.queries.ts';
import { startSession } from '../../../session/session.ts';
import { authApi } from '../api/auth.api.ts';
import { CodeLoginForm } from '../components/code-login-form.tsx';
import { PasswordLoginForm } from '../components/password-login-form.tsx';
import { Button } from '../components/sign-in-controls.tsx';
import { SignInLanguageSwitch } from '../components/sign-in-language-switch.tsx';
import { HOME, useLogin } from '../components/use-login.ts';
import '../login.css';

type Tab = 'password' | 'code';
type Notice = { type: 'success' | 'error'; text: string };

/** Only a path inside this console may be a redirect target (no `//host` or scheme). */
function safePath(p: string | null): string | null {
  return p?.startsWith('/') && !p.startsWith('//') && !p.includes('\\') ? p : null;
}

/**
 * The sign-in page (spec §2). Plain markup drawn like the console's Ant Design (login.css): it is
 * the first page a visitor loads, and loads no Ant Design at all.
 */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const config = useQuery(globalConfigQuery());
  const { login, pending, error, clearError, pendingReview, closePendingReview } = useLogin();
  const [tab, setTab] = useState<Tab>('password');
  const [notice, setNotice] = useState<Notice | null>(null);
  const thirdParty = useThirdPartyReturn();
  const [params] = useSearchParams();
  const oidcError = params.get('oidcError');
  const thirdPartyError = oidcError ? (i18n.exists(`errors.${oidcError}`) ? t(`errors.${oidcError}`) : t('errors.oidc.failed')) : null;
  const brand = config.data?.cloudname || t('common.brand.default');
  const shownError = error ?? thirdPartyError;

  useEffect(() => {
    document.title = `${t('auth.login.title')} - ${brand}`;
  }, [t, brand]);

  // A notice shows for three seconds, as Ant Design's message does.
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 3000);
    return () => clearTimeout(timer);
  }, [notice]);

  if (thirdParty) {
    return (
      <div className="lh-login lh-login--center">
        <span className="lh-spinner lh-spinner--large" aria-hidden="true" />
        <span>{t('auth.login.thirdPartyLoading')}</span>
      </div>
    );
  }

  const tabs: { key: Tab; label: string }[] = [
    { key: 'password', label: t('auth.login.tab.password') },
    { key: 'code', label: t('auth.login.tab.code') },
  ];

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
            <SvgIcon icon={CloudServerOutlined} /> {t('auth.login.feature.devices')}
          </li>
          <li>
            <SvgIcon icon={AreaChartOutlined} /> {t('auth.login.feature.data')}
          </li>
          <li>
            <SvgIcon icon={ApiOutlined} /> {t('auth.login.feature.alerts')}
          </li>
        </ul>
      </section>
      <section className="lh-login__panel">
        <div className="lh-login__tools">
          <Link to="/doc?type=help" target="_blank" className="lh-login__help">
            <SvgIcon icon={QuestionCircleOutlined} /> {t('auth.login.help')}
          </Link>
          <SignInLanguageSwitch />
        </div>
        <div className="lh-login__card">
          <h3 className="lh-login__title">{t('auth.login.welcome')}</h3>
          <div className="lh-tabs" role="tablist">
            {tabs.map(({ key, label }) => (
              <button
                key={key}
                type="button"
                role="tab"
                id={`login-tab-${key}`}
                aria-selected={tab === key}
                aria-controls="login-tab-panel"
                className={tab === key ? 'lh-tabs__tab lh-tabs__tab--active' : 'lh-tabs__tab'}
                onClick={() => {
                  setTab(key);
                  clearError();
                }}
              >
                {label}
              </button>
            ))}
          </div>
          <div id="login-tab-panel" role="tabpanel" aria-labelledby={`login-tab-${tab}`}>
            {shownError && (
              <div className="lh-alert lh-alert--error" role="alert">
                <SvgIcon icon={CloseCircleFilled} className="lh-alert__icon" />
                <span className="lh-alert__text">{shownError}</span>
              </div>
            )}
            {tab === 'password' ? (
              <PasswordLoginForm login={login} pending={pending} />
            ) : (
              <CodeLoginForm login={login} pending={pending} onNotice={setNotice} />
            )}
          </div>
          <div className="lh-login__links">
            <Link to="/ForgetPassword">{t('auth.login.forgot')}</Link>
            <Link to="/Register">{t('auth.login.register')}</Link>
          </div>
          {(config.data?.experience || config.data?.oidc.enabled) && <hr className="lh-divider" />}
          <div className="lh-login__alt">
            {config.data?.experience && (
              <Button block onClick={() => login('experience', authApi.experience)} disabled={pending}>
                {t('auth.login.experience')}
              </Button>
            )}
            {config.data?.oidc.enabled && (
              <a
                className="lh-button lh-button--large lh-button--default lh-button--circle"
                href={authApi.oidcAuthorizeUrl(HOME)}
                onClick={(e) => {
                  e.preventDefault();
                  window.location.assign(authApi.oidcAuthorizeUrl(HOME, newOidcState()));
                }}
                aria-label={t('auth.login.thirdParty')}
                title={config.data.oidc.name || t('auth.login.thirdParty')}
              >
                <SvgIcon icon={LoginOutlined} />
              </a>
            )}
          </div>
        </div>
      </section>
      {notice && (
        <div className="lh-toast" role={notice.type === 'error' ? 'alert' : 'status'}>
          <SvgIcon
            icon={notice.type === 'error' ? CloseCircleFilled : CheckCircleFilled}
            className={`lh-toast__icon lh-toast__icon--${notice.type}`}
          />
          {notice.text}
        </div>
      )}
      {pendingReview && <PendingReviewDialog onClose={closePendingReview} />}
    </div>
  );
}

/** The account is not reviewed yet (spec §3): a modal dialog, as Ant Design's `modal.info`. */
function PendingReviewDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="lh-dialog" aria-labelledby="pending-review-title" onClose={onClose}>
      <div className="lh-dialog__body">
        <SvgIcon icon={InfoCircleFilled} className="lh-dialog__icon" />
        <div>
          <div id="pending-review-title" className="lh-dialog__title">
            {t('auth.pending.title')}
          </div>
          <div className="lh-dialog__content">{t('auth.pending.text')}</div>
        </div>
      </div>
      <div className="lh-dialog__footer">
        <button type="button" className="lh-button lh-button--primary" onClick={() => ref.current?.close()}>
          {t('common.action.ok')}
        </button>
      </div>
    </dialog>
  );
}

/**
 * After a third-party login the server sends the browser back to /Login with a one-time code
 * (`oidcCode`): the code leaves the address at once, and is exchanged with the state this tab stored
 * before it left; the session it gives is kept and the console goes on to `prePath`. A return this
 * tab did not start (no stored state) is refused, and whatever session the browser has stays.
 */
function useThirdPartyReturn(): boolean {
  const [params] = useSearchParams();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const code = params.get('oidcCode');
  const taken = useRef<string | null>(null);
  useEffect(() => {
    if (!code || taken.current === code) return;
    taken.current = code;
    dropCodeFromAddress();
    const state = takeOidcState();
    const refuse = (error: string) => navigate(`/Login?oidcError=${encodeURIComponent(error)}`, { replace: true });
    if (!state) return void refuse('oidc.bad-state');
    void authApi
      .oidcExchange(code, state)
      .then(async (res) => {
        const landing = await startSession(qc, res, '');
        const to = safePath(res.prePath) ?? landing;
        navigate(res.preQuery ? `${to}?${res.preQuery.replace(/^\?/, '')}` : to, { replace: true });
      })
      .catch((e: unknown) => refuse(e instanceof ApiError ? e.code : 'oidc.failed'));
  }, [code, qc, navigate]);
  return code !== null;
}
