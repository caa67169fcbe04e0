import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuditPanel } from '../components/audit-panel.tsx';
import { BehaviourPanel } from '../components/behaviour-panel.tsx';
import { CommonRolesPanel } from '../components/common-roles-panel.tsx';
import { GlobalMenuPanel } from '../components/global-menu-panel.tsx';
import { NoticePanel } from '../components/notice-panel.tsx';
import { OrderPanel } from '../components/order-panel.tsx';
import { PushLogPanel } from '../components/push-log-panel.tsx';
import { TenantListPanel } from '../components/tenant-list-panel.tsx';
import { WebDeployPanel } from '../components/web-deploy-panel.tsx';

const TABS = ['audit', 'tenants', 'orders', 'notices', 'roles', 'menus', 'push-log', 'deploy', 'behaviour'] as const;

/**
 * System setting (system managers only, spec §2): tenant audit, tenant list, orders (payments to
 * confirm), announcements, common roles, the global menu, the notification push log, the web deployment (console versions,
 * deploy and server configuration, web-deploy users, deploy log) and the users' header clicks.
 */
export default function SystemSettingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((k) => k === params.get('tab')) ?? 'audit';
  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('system.setting.title')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'audit', label: t('system.tab.audit'), children: <AuditPanel /> },
          { key: 'tenants', label: t('system.tab.tenants'), children: <TenantListPanel /> },
          { key: 'orders', label: t('system.tab.orders'), children: <OrderPanel /> },
          { key: 'notices', label: t('system.tab.notices'), children: <NoticePanel /> },
          { key: 'roles', label: t('system.tab.roles'), children: <CommonRolesPanel /> },
          { key: 'menus', label: t('system.tab.menus'), children: <GlobalMenuPanel /> },
          { key: 'push-log', label: t('system.tab.pushLog'), children: <PushLogPanel /> },
          { key: 'deploy', label: t('system.tab.deploy'), children: <WebDeployPanel /> },
          { key: 'behaviour', label: t('system.tab.behaviour'), children: <BehaviourPanel /> },
        ]}
      />
    </Card>
  );
}
