import { LockOutlined, MailOutlined, MobileOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, List, Skeleton, Tabs, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { selfDetailQuery } from '../../../session/session.queries.ts';
import { ProfilePanel } from '../components/profile-panel.tsx';
import { type SecurityAction, SecurityDialog } from '../components/security-dialogs.tsx';
import { ThirdPartyLink } from '../components/third-party-link.tsx';

/** Shows a number with its middle hidden, as account pages usually do. */
function masked(mobile: string | null): string {
  if (!mobile) return '';
  return mobile.length > 7 ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : mobile;
}

/** User centre (spec §2): personal info and account security (password, mobile, e-mail). */
export default function UserCenterPage() {
  const { t } = useTranslation();
  const self = useQuery(selfDetailQuery());
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'security' ? 'security' : 'profile';
  const [action, setAction] = useState<SecurityAction | null>(null);

  if (!self.data) {
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  const me = self.data;
  const rows: { key: SecurityAction; icon: ReactNode; title: string; value: string }[] = [
    { key: 'password', icon: <LockOutlined />, title: t('user.security.password.title'), value: '********' },
    {
      key: 'mobile',
      icon: <MobileOutlined />,
      title: t('user.security.mobile.title'),
      value: me.mobile ? `+${me.area_code} ${masked(me.mobile)}` : t('user.security.notSet'),
    },
    { key: 'email', icon: <MailOutlined />, title: t('user.security.email.title'), value: me.email || t('user.security.notSet') },
  ];

  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('user.center.title')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        items={[
          { key: 'profile', label: t('user.center.tab.profile'), children: <ProfilePanel self={me} /> },
          {
            key: 'security',
            label: t('user.center.tab.security'),
            children: (
              <>
                <List
                  style={{ maxWidth: 720 }}
                  dataSource={rows}
                  renderItem={(r) => (
                    <List.Item
                      actions={[
                        <Button
                          key="change"
                          type="link"
                          onClick={() => setAction(r.key)}
                          disabled={me.readOnly}
                          data-testid={`security-${r.key}`}
                        >
                          {t('user.security.change')}
                        </Button>,
                      ]}
                    >
                      <List.Item.Meta avatar={r.icon} title={r.title} description={r.value} />
                    </List.Item>
                  )}
                />
                <ThirdPartyLink readOnly={me.readOnly} />
              </>
            ),
          },
        ]}
      />
      <SecurityDialog action={action} self={me} onClose={() => setAction(null)} />
    </Card>
  );
}
