import { AppstoreAddOutlined, CloudUploadOutlined, FileTextOutlined } from '@ant-design/icons';
import type { MenuKey } from '@loggerhead/contract/menus.ts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Menu, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { trackBehaviour } from '../../session/behaviour.ts';
import { MENU_PATHS, menuOfPath, TOP_MENU } from '../../session/menus.ts';
import { leaveSuperSession } from '../../session/super-session.ts';
import type { SessionInfo } from '../../session/use-session.ts';
import { CapacityButton, HelpLink, openWithToken, ScreenDropdown } from './header-tools.tsx';
import { MessageBell } from './message-bell.tsx';
import { usageQuery } from './shell.queries.ts';
import { UserMenu } from './user-menu.tsx';

const light = { color: 'rgba(255,255,255,0.85)' };

/** The 50px header bar (spec §2): brand, top menu, links and tools, user menu. */
export function AppHeader({ session, brand, onCapacityRequest }: { session: SessionInfo; brand: string; onCapacityRequest: () => void }) {
  const usage = useQuery(usageQuery(session.tenantId));
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { message } = App.useApp();
  const selected = menuOfPath(pathname);
  const logo = session.customization.systemLogo || session.config?.homepageLogo;

  const items = TOP_MENU.filter((k) => session.menus.has(k)).map((k) => ({ key: k, label: t(`app.menu.${k}`) }));

  return (
    <div className="lh-header__bar">
      <button type="button" className="lh-header__brand" onClick={() => navigate('/Container/HomePage')}>
        {logo ? <img src={logo} alt="" height={28} /> : <span className="lh-logo">L</span>}
        <span>{brand}</span>
      </button>
      <Menu
        theme="dark"
        mode="horizontal"
        className="lh-header__menu"
        selectedKeys={selected ? [selected] : []}
        items={items}
        onClick={({ key }) => {
          trackBehaviour(key);
          navigate(MENU_PATHS[key as MenuKey]);
        }}
        data-testid="top-menu"
      />
      {session.privileges?.super_session && (
        <span data-testid="super-session" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          <Tag color="red" style={{ marginInlineEnd: 0 }}>
            {t(session.privileges.super_session.read_only ? 'app.superSession.readOnly' : 'app.superSession.writable', {
              tenant: session.privileges.super_session.tenant_name,
              by: session.privileges.super_session.by,
            })}
          </Tag>
          <Button size="small" danger onClick={() => void leaveSuperSession()} data-testid="super-session-exit">
            {t('app.superSession.exit')}
          </Button>
        </span>
      )}
      <nav className="lh-header__tools">
        <Tooltip title={t('app.header.lowCode')}>
          <Button
            type="text"
            style={light}
            aria-label={t('app.header.lowCode')}
            icon={<AppstoreAddOutlined />}
            onClick={() => {
              trackBehaviour('low-code');
              if (session.links.lowCodeUrl) openWithToken(session.links.lowCodeUrl);
              else void message.info(t('app.header.notConfigured'));
            }}
          >
            <span className="lh-header__label">{t('app.header.lowCode')}</span>
          </Button>
        </Tooltip>
        <Tooltip title={t('app.header.capacityRequest')}>
          <Button
            type="text"
            style={light}
            aria-label={t('app.header.capacityRequest')}
            icon={<CloudUploadOutlined />}
            onClick={() => {
              trackBehaviour('capacity-request');
              if (session.links.capacityUrl) openWithToken(session.links.capacityUrl);
              else onCapacityRequest();
            }}
          >
            <span className="lh-header__label">{t('app.header.capacityRequest')}</span>
          </Button>
        </Tooltip>
        {session.menus.has('workorder') && (
          <Tooltip title={t('app.menu.workorder')}>
            <Button
              type="text"
              style={light}
              aria-label={t('app.menu.workorder')}
              icon={<FileTextOutlined />}
              onClick={() => {
                trackBehaviour('workorder');
                navigate(MENU_PATHS.workorder);
              }}
            >
              <span className="lh-header__label">{t('app.menu.workorder')}</span>
            </Button>
          </Tooltip>
        )}
        <ScreenDropdown tenantId={session.tenantId} userId={session.userId} />
        <LanguageSwitch dark />
        <HelpLink href={session.links.helpUrl} />
        <MessageBell tenantId={session.tenantId} userId={session.userId} />
        <CapacityButton usage={usage.data ?? null} loading={usage.isLoading} />
        <UserMenu session={session} />
      </nav>
    </div>
  );
}
