import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { MenuKey } from '@loggerhead/contract/menus.ts';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { flushBehaviour, trackBehaviour } from '../../session/behaviour.ts';
import { MENU_PATHS, USER_MENU } from '../../session/menus.ts';
import { endSession } from '../../session/session.ts';
import type { SessionInfo } from '../../session/use-session.ts';
import { openWithToken } from './header-tools.tsx';

export function UserMenu({ session }: { session: SessionInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();

  const items: MenuProps['items'] = [
    { key: 'user-center', label: t('app.menu.userCenter') },
    // Buying packages is the tenant manager's (the orders' keys are manager-only).
    ...(session.role === 'manager' ? [{ key: 'orders', label: t('app.menu.orders') }] : []),
    // The HMI screens given to the user (an operator may have nothing else).
    { key: 'my-hmi', label: t('app.menu.myHmi') },
    ...USER_MENU.filter((k) => session.menus.has(k)).map((k) => ({ key: k, label: t(`app.menu.${k}`) })),
    { type: 'divider' as const },
    { key: 'logout', label: t('app.header.logout'), icon: <LogoutOutlined />, danger: true },
  ];

  const onClick: MenuProps['onClick'] = async ({ key }) => {
    trackBehaviour(key);
    if (key === 'logout') {
      // What was clicked goes before the session ends.
      flushBehaviour();
      await endSession(qc);
      navigate('/Login', { replace: true });
    } else if (key === 'user-center') {
      if (session.links.userCenterUrl) openWithToken(session.links.userCenterUrl);
      else navigate('/Container/UserManager/UserCenter');
    } else if (key === 'orders') navigate('/Container/UserManager/Orders');
    else if (key === 'my-hmi') navigate('/Container/MyHmi');
    else navigate(MENU_PATHS[key as MenuKey]);
  };

  return (
    <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
      <Button type="text" style={{ color: '#fff', paddingInline: 8 }} data-testid="user-menu" aria-label={t('app.header.user')}>
        <Avatar
          size={24}
          src={session.self?.avatar || undefined}
          icon={<UserOutlined />}
          style={{ background: 'var(--lh-primary, #1677ff)' }}
        />
        <span className="lh-header__username">{session.displayName}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
